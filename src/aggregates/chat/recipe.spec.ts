import { deciderKit } from '../../../test/support/decider-kit';
import type { RecipeEvent } from './chat.events';
import { recipeDecider, type RecipeCommand, type ActionResult } from './recipe';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const AT = NOW.toISOString();
const { given } = deciderKit(recipeDecider, NOW);

type CreateAndSave = Extract<RecipeCommand, { kind: 'createAndSave' }>;

const results: ActionResult[] = [
  { action_index: 0, tool: 'arithmetic', status: 'completed', output: '4' },
  { action_index: 1, tool: null, status: 'needs_model', output: 'needs a model' },
];
const actions = [
  { index: 0, description: '2 + 2', tool: 'arithmetic', input: '2 + 2' },
  { index: 1, description: 'a haiku', tool: null, input: 'a haiku' },
];
const create: CreateAndSave = {
  kind: 'createAndSave',
  recipeId: 'recipe_1',
  userId: 'u1',
  promptId: 'p1',
  name: 'adder',
  goal: 'add',
  flowId: 'p1:v1',
  actions,
  runId: 'run_1',
  results,
};

const created = (version: number): RecipeEvent => ({
  type: 'RecipeCreated',
  data: { recipe_id: 'recipe_1', user_id: 'u1', prompt_id: 'p1', name: 'adder', goal: 'add', flows: [{ flow_id: 'p1:v1', actions }], version, created_at: AT },
});
const actionCompleted = (version: number, runId: string, result: ActionResult): RecipeEvent => ({
  type: 'RecipeActionCompleted',
  data: { recipe_id: 'recipe_1', version, run_id: runId, flow_id: 'p1:v1', ...result, completed_at: AT },
});
const saved = (version: number, runId: string): RecipeEvent => ({
  type: 'RecipeSaved',
  data: { recipe_id: 'recipe_1', version, run_id: runId, actions_completed: 1, saved_at: AT },
});
/** version 1, saved by run_1 */
const version1 = [created(1), ...results.map((r) => actionCompleted(1, 'run_1', r)), saved(1, 'run_1')];

describe('recipe', () => {
  describe('createAndSave', () => {
    it('given no recipe, when created and saved, then version 1, one event per action, and the save counting completed actions', () =>
      given().when(create).then(...version1));

    it('given a saved version, when created again, then version 2 with the same recipe id', () =>
      given(...version1)
        .when({ ...create, recipeId: 'recipe_other', runId: 'run_2' })
        .then(created(2), ...results.map((r) => actionCompleted(2, 'run_2', r)), saved(2, 'run_2')));

    it('given a saved version, then the recipe is saved with its flow and the run that saved it', () =>
      expect(given(...version1).state()).toEqual({
        status: 'saved',
        recipeId: 'recipe_1',
        version: 1,
        name: 'adder',
        goal: 'add',
        flows: [{ flow_id: 'p1:v1', actions }],
        runs: { run_1: true },
      }));

    it('given a run already recorded, when the same run id comes again, then nothing new', () => given(...version1).when(create).thenNothing());

    it('given no recipe, when a very long output is recorded, then it is cut to 2000 characters', () => {
      const [, action] = given().when({ ...create, results: [{ ...results[0], output: 'x'.repeat(5000) }] }).events();
      expect((action.data as { output: string }).output).toHaveLength(2000);
    });
  });

  describe('reuse', () => {
    it('given no saved recipe, when reused, then 404', () =>
      given().when({ kind: 'reuse', runId: 'r', results }).thenRefused('not_found', 'no saved recipe for this prompt_id'));

    it('given a saved recipe, when reused, then the replayed actions and the reuse of that version', () =>
      given(...version1)
        .when({ kind: 'reuse', runId: 'run_9', results })
        .then(...results.map((r) => actionCompleted(1, 'run_9', r)), {
          type: 'RecipeReused',
          data: { recipe_id: 'recipe_1', version: 1, run_id: 'run_9', actions_completed: 1, reused_at: AT },
        }));
  });
});
