/**
 * An agent's name in a page address (`/agents/<agent_name>`) names the
 * conversation the page chats in: its `prompt_id` is the name's slug (lower
 * case letters and digits, runs of anything else one `-`, at most 64
 * characters), so `/agents/Travel%20Planner` and `/agents/travel-planner`
 * are the same agent. The first message on a slug with no saved recipe runs
 * the CREATE flow, which builds the agent; later ones reuse it (docs/api.md).
 * The widget script computes the same slug in the browser (assets/widget.script.ts).
 */
const MAX_SLUG = 64;

/** The prompt_id of an agent name, or null when nothing of it is left (a name of symbols only). */
export function agentSlug(name: string): string | null {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return slug || null;
}
