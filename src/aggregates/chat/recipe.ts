/**
 * The recipe saved for a prompt id, stream `recipe-<userId>/<promptId>`: its
 * name, goal, flows and actions, in versions, and every run of it. A CREATE
 * ends with one append holding the new version, each action's result and the
 * save; a REUSE appends the replayed actions' results and the reuse. Runs are
 * idempotent on their run id.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider, InStatus } from '../shared/decider';
import type { ActionStatus, RecipeAction, RecipeEvent, RecipeFlow } from './chat.events';

export interface ActionResult {
  action_index: number;
  tool: string | null;
  status: ActionStatus;
  output: string;
}

export interface Recipe {
  recipeId: string;
  version: number;
  name: string;
  goal: string;
  flows: RecipeFlow[];
  /** run ids recorded (a save or a reuse) */
  runs: Record<string, true>;
}

/** No recipe yet; or its latest version, created, then saved (a REUSE needs a saved recipe). */
export type RecipeState = { status: 'none' } | (Recipe & { status: 'created' | 'saved' });
export type SavedRecipe = InStatus<RecipeState, 'saved'>;

export type RecipeCommand =
  | {
      kind: 'createAndSave';
      recipeId: string;
      userId: string;
      promptId: string;
      name: string;
      goal: string;
      flowId: string;
      actions: RecipeAction[];
      runId: string;
      results: ActionResult[];
    }
  | { kind: 'reuse'; runId: string; results: ActionResult[] };

/** Outputs are kept short in the log; a run's full answer is in the conversation. */
export const OUTPUT_MAX_CHARS = 2000;

export function completedCount(results: readonly ActionResult[]): number {
  return results.filter((r) => r.status === 'completed').length;
}

export function recipeActions(recipe: Recipe): RecipeAction[] {
  return recipe.flows.flatMap((flow) => flow.actions);
}

/** The latest version; 0 before the first. */
export function recipeVersion(state: RecipeState): number {
  return state.status === 'none' ? 0 : state.version;
}

function actionEvents(
  recipeId: string,
  version: number,
  runId: string,
  flowId: string,
  results: readonly ActionResult[],
  at: string,
): RecipeEvent[] {
  return results.map((r) => ({
    type: 'RecipeActionCompleted',
    data: {
      recipe_id: recipeId,
      version,
      run_id: runId,
      flow_id: flowId,
      action_index: r.action_index,
      tool: r.tool,
      status: r.status,
      output: r.output.slice(0, OUTPUT_MAX_CHARS),
      completed_at: at,
    },
  }));
}

export const recipeDecider: Decider<RecipeState, RecipeCommand, RecipeEvent> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    switch (event.type) {
      case 'RecipeCreated':
        return {
          status: 'created',
          recipeId: event.data.recipe_id,
          version: event.data.version,
          name: event.data.name,
          goal: event.data.goal,
          flows: event.data.flows,
          runs: state.status === 'none' ? {} : state.runs,
        };
      case 'RecipeActionCompleted':
        return state;
      case 'RecipeSaved':
        if (state.status === 'none') return state;
        return { ...state, status: 'saved', runs: { ...state.runs, [event.data.run_id]: true } };
      case 'RecipeReused':
        if (state.status === 'none') return state;
        return { ...state, runs: { ...state.runs, [event.data.run_id]: true } };
      default:
        return assertNever(event);
    }
  },

  decide(command, state, now) {
    if (state.status !== 'none' && state.runs[command.runId]) return [];
    const at = now.toISOString();
    switch (command.kind) {
      case 'createAndSave': {
        const version = recipeVersion(state) + 1;
        const recipeId = state.status === 'none' ? command.recipeId : state.recipeId;
        return [
          {
            type: 'RecipeCreated',
            data: {
              recipe_id: recipeId,
              user_id: command.userId,
              prompt_id: command.promptId,
              name: command.name,
              goal: command.goal,
              flows: [{ flow_id: command.flowId, actions: command.actions }],
              version,
              created_at: at,
            },
          },
          ...actionEvents(recipeId, version, command.runId, command.flowId, command.results, at),
          {
            type: 'RecipeSaved',
            data: { recipe_id: recipeId, version, run_id: command.runId, actions_completed: completedCount(command.results), saved_at: at },
          },
        ];
      }
      case 'reuse': {
        if (state.status !== 'saved') throw new DomainError('not_found', 'no saved recipe for this prompt_id');
        const flowId = state.flows[0]?.flow_id ?? 'flow_1';
        return [
          ...actionEvents(state.recipeId, state.version, command.runId, flowId, command.results, at),
          {
            type: 'RecipeReused',
            data: {
              recipe_id: state.recipeId,
              version: state.version,
              run_id: command.runId,
              actions_completed: completedCount(command.results),
              reused_at: at,
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
