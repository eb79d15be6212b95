/**
 * The rules of the chat pipeline's modes and of CREATE's stages, pure
 * (original-system facts, /chat): REUSE when a saved recipe exists for the
 * prompt id and create_agent is not set; CREATE otherwise, in stages:
 * gathering the agent's configuration ("Creation Mode"), the user's review
 * ("Review Mode"), then "completed" when the recipe runs and is saved.
 * `autonomous` does gathering and recipe in one call; `casual_conv` skips task
 * decomposition; `speculative` answers fast and hands off to an expert.
 */
import { assertNever } from '../shared/domain-error';
import type { AgentDraft, CreationStage, RecipeAction } from './chat.events';

/** Where CREATE stands in a conversation: a draft exists only while it is gathered or reviewed. */
export type CreationState = { stage: 'none' | 'completed' } | { stage: 'gathering' | 'review'; draft: AgentDraft };

export type PipelineMode = 'casual' | 'speculative' | 'reuse' | 'create';

export interface ModeFlags {
  createAgent: boolean;
  casualConv: boolean;
  speculative: boolean;
}

/** A step found in a prompt: its text, the built-in tool that can do it (or null) and that tool's input. */
export interface PlannedAction {
  text: string;
  tool: string | null;
  input: string;
}

export function chooseMode(flags: ModeFlags, stage: CreationStage, recipeSaved: boolean): PipelineMode {
  if (flags.casualConv) return 'casual';
  if (flags.speculative) return 'speculative';
  const creating = stage === 'gathering' || stage === 'review';
  if (recipeSaved && !flags.createAgent && !creating) return 'reuse';
  return 'create';
}

const APPROVAL =
  /^(?:y|yes|yep|yeah|ok|okay|sure|approve[d]?|confirm(?:ed)?|lgtm|looks good|sounds good|go|go ahead|do it|run it|save it|proceed|continue|done|that'?s it|perfect|great)(?:\s+(?:to me|thanks?|please|go ahead|run it|save it))*$/;

/** Whether a reply approves what was shown (case, punctuation and emoji-free words only). */
export function isApproval(text: string): boolean {
  const words = text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return words !== '' && APPROVAL.test(words);
}

export type CreateStep =
  | { kind: 'propose'; draft: AgentDraft }
  | { kind: 'review'; draft: AgentDraft }
  | { kind: 'run'; draft: AgentDraft };

const NAME_MAX = 48;
const GOAL_MAX = 200;

function firstSentence(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > GOAL_MAX ? `${sentence.slice(0, GOAL_MAX - 1)}…` : sentence;
}

/** A readable agent name from the goal: its first words, kebab-case. */
export function agentName(goal: string): string {
  const slug = goal
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const cut = slug.length > NAME_MAX ? slug.slice(0, NAME_MAX).replace(/-[^-]*$/, '') : slug;
  return cut === '' ? 'agent' : cut;
}

function toActions(steps: readonly PlannedAction[], offset = 0): RecipeAction[] {
  return steps.map((s, i) => ({ index: offset + i, description: s.text, tool: s.tool, input: s.input }));
}

export function draftFromPrompt(prompt: string, steps: readonly PlannedAction[]): AgentDraft {
  const goal = firstSentence(prompt);
  return { name: agentName(goal), goal, actions: toActions(steps) };
}

/** A reply in Creation or Review Mode that is not an approval adds its steps to the agent. */
export function amendDraft(draft: AgentDraft, steps: readonly PlannedAction[]): AgentDraft {
  return { ...draft, actions: [...draft.actions, ...toActions(steps, draft.actions.length)] };
}

/** What a CREATE turn does, from where the conversation stands. */
export function nextCreateStep(input: {
  creation: CreationState;
  prompt: string;
  steps: readonly PlannedAction[];
  autonomous: boolean;
}): CreateStep {
  const { creation, prompt, steps, autonomous } = input;
  switch (creation.stage) {
    case 'none':
    case 'completed':
      return { kind: autonomous ? 'run' : 'propose', draft: draftFromPrompt(prompt, steps) };
    case 'gathering':
    case 'review': {
      const { draft } = creation;
      if (!isApproval(prompt)) return { kind: autonomous ? 'run' : 'propose', draft: amendDraft(draft, steps) };
      if (autonomous) return { kind: 'run', draft };
      return creation.stage === 'gathering' ? { kind: 'review', draft } : { kind: 'run', draft };
    }
    default:
      return assertNever(creation);
  }
}

function actionLine(action: RecipeAction): string {
  const how = action.tool ? `tool: ${action.tool}` : 'needs a language model';
  return `${action.index + 1}. ${action.description} (${how})`;
}

export function describeDraft(draft: AgentDraft): string {
  return [`Name: ${draft.name}`, `Goal: ${draft.goal}`, 'Actions:', ...draft.actions.map(actionLine)].join('\n');
}

export function creationModeText(draft: AgentDraft): string {
  return [
    'Creation Mode: I am setting up an agent for this.',
    describeDraft(draft),
    'Tell me what to add or change, or say "looks good" to review it.',
  ].join('\n');
}

export function reviewModeText(draft: AgentDraft): string {
  return [
    'Review Mode: this is the agent as it will be saved.',
    describeDraft(draft),
    'Say "approve" to run it and save the recipe, or tell me what to change.',
  ].join('\n');
}
