/**
 * A recipe shared on the social platform (social-routes §10; stream
 * `sharedRecipe-<id>`, apart from the chat pipeline's own `recipe-<user>/<prompt>`
 * streams it may point at). Sharing names the recipe file; prompt_id and
 * flow_id come from a `<digits>_<digits>_recipe.json` file name, else 0.
 * Every fork counts (no per-user de-duplication, as in the original).
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export interface RecipeSharedData {
  recipe_id: string;
  /** the post that presents the recipe (content_type `recipe`, recipe_ref = the file) */
  post_id: string;
  author_id: string;
  title: string;
  description: string;
  community: string | null;
  recipe_file: string;
  prompt_id: number;
  flow_id: number;
  persona: string;
  action_summary: string;
  /** the sharer's saved recipe of the chat pipeline this file is (stream `recipe-<author>/<prompt_id>`), when there is one */
  chat_recipe_id: string | null;
  chat_recipe_version: number | null;
  created_at: string;
}

export type SharedRecipeEvent =
  | { type: 'RecipeShared'; data: RecipeSharedData }
  | { type: 'RecipeForked'; data: { recipe_id: string; forked_by: string; post_author_id: string; fork_count: number; at: string } };

export type SharedRecipeState = { status: 'none' } | { status: 'shared'; recipeId: string; authorId: string; recipeFile: string; forkCount: number };

export type SharedRecipeCommand =
  | { kind: 'share'; recipe: Omit<RecipeSharedData, 'created_at' | 'prompt_id' | 'flow_id'> }
  | { kind: 'fork'; forkedBy: string };

export const sharedRecipeStreamId = (recipeId: string): string => `sharedRecipe-${recipeId}`;
export const RECIPE_NOT_FOUND = 'Recipe not found';

const RECIPE_FILE = /^(\d+)_(\d+)_recipe\.json$/;

/** prompt_id and flow_id of a `<digits>_<digits>_recipe.json` file name (its last path segment), else 0 and 0. */
export function recipeIds(recipeFile: string): { prompt_id: number; flow_id: number } {
  const name = recipeFile.trim().split(/[\\/]/).pop() ?? '';
  const match = RECIPE_FILE.exec(name);
  if (!match) return { prompt_id: 0, flow_id: 0 };
  const [promptId, flowId] = [Number(match[1]), Number(match[2])];
  return Number.isSafeInteger(promptId) && Number.isSafeInteger(flowId) ? { prompt_id: promptId, flow_id: flowId } : { prompt_id: 0, flow_id: 0 };
}

const initialState: SharedRecipeState = { status: 'none' };

function evolve(state: SharedRecipeState, event: SharedRecipeEvent): SharedRecipeState {
  switch (event.type) {
    case 'RecipeShared':
      return { status: 'shared', recipeId: event.data.recipe_id, authorId: event.data.author_id, recipeFile: event.data.recipe_file, forkCount: 0 };
    case 'RecipeForked':
      return state.status === 'shared' ? { ...state, forkCount: event.data.fork_count } : state;
    default:
      return assertNever(event);
  }
}

function decide(command: SharedRecipeCommand, state: SharedRecipeState, now: Date): SharedRecipeEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'share':
      if (state.status !== 'none') throw new DomainError('conflict', 'Recipe already shared');
      return [{ type: 'RecipeShared', data: { ...command.recipe, ...recipeIds(command.recipe.recipe_file), created_at: at } }];
    case 'fork':
      if (state.status !== 'shared') throw new DomainError('not_found', RECIPE_NOT_FOUND);
      return [{ type: 'RecipeForked', data: { recipe_id: state.recipeId, forked_by: command.forkedBy, post_author_id: state.authorId, fork_count: state.forkCount + 1, at } }];
    default:
      return assertNever(command);
  }
}

export const sharedRecipeDecider: Decider<SharedRecipeState, SharedRecipeCommand, SharedRecipeEvent> = { initialState, evolve, decide };
