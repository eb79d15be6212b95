/**
 * `a2aAgents`: the agents registered on this node, one document per agent in
 * `a2a_agents`, from which each agent card is served (SPEC §2.5, §4.6).
 *
 * An agent is a saved recipe of the /chat CREATE flow: its id is the recipe
 * id (stable across versions), its owner and prompt id say which
 * conversation and recipe the A2A executor runs, its name and goal are the
 * card's name and description, and its actions give the skill's tags. It is
 * registered from its first `RecipeSaved`; a later version updates the card.
 *
 * `source` says where an agent comes from: `recipe` today; the social
 * platform's agent users (a later issue) add their own source and event
 * handlers writing the same document shape, so the card route and the
 * executor need not change.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const A2A_AGENTS = 'a2a_agents';

export interface A2aSkillDoc {
  id: string;
  name: string;
  description: string;
  tags: string[];
}

export interface A2aAgentDoc extends Doc {
  agent_id: string;
  source: 'recipe';
  owner_id: string;
  prompt_id: string;
  name: string;
  description: string;
  /** the recipe's version the card describes */
  version: number;
  skills: A2aSkillDoc[];
  /** false until the recipe is saved: a card is served only for registered agents */
  registered: boolean;
  registered_at: string | null;
  updated_at: string;
}

export const a2aAgentsProjection = defineProjection({
  name: 'a2aAgents',
  version: 1,
  collections: [A2A_AGENTS],
  indexes: [{ collection: A2A_AGENTS, spec: { keys: { owner_id: 1 } } }],
  on: {
    RecipeCreated: (event, writer) => {
      const d = event.data;
      const actions = d.flows.flatMap((flow) => flow.actions);
      const tools = [...new Set(actions.map((a) => a.tool ?? 'language-model'))];
      const skill: A2aSkillDoc = {
        id: d.prompt_id,
        name: d.name,
        description: d.goal,
        tags: ['recipe', ...tools],
      };
      applyOnce(writer, A2A_AGENTS, d.recipe_id, event, {
        $set: {
          agent_id: d.recipe_id,
          source: 'recipe',
          owner_id: d.user_id,
          prompt_id: d.prompt_id,
          name: d.name,
          description: d.goal,
          version: d.version,
          skills: [skill],
          updated_at: d.created_at,
        },
        $setOnInsert: { registered: false, registered_at: null },
      });
    },
    RecipeSaved: (event, writer) => {
      const d = event.data;
      // the first version's save registers the agent; later versions keep that date
      const registeredAt = d.version === 1 ? { registered_at: d.saved_at } : {};
      applyOnce(writer, A2A_AGENTS, d.recipe_id, event, { $set: { registered: true, updated_at: d.saved_at, ...registeredAt } }, { upsert: false });
    },
  },
});
