import type { RecipeEvent } from './chat.events';
import { recipeDecider, type RecipeCommand, type ActionResult } from './recipe';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const results: ActionResult[] = [
  { action_index: 0, tool: 'arithmetic', status: 'completed', output: '4' },
  { action_index: 1, tool: null, status: 'needs_model', output: 'needs a model' },
];
const create: RecipeCommand = {
  kind: 'createAndSave',
  recipeId: 'recipe_1',
  userId: 'u1',
  promptId: 'p1',
  name: 'adder',
  goal: 'add',
  flowId: 'p1:v1',
  actions: [
    { index: 0, description: '2 + 2', tool: 'arithmetic', input: '2 + 2' },
    { index: 1, description: 'a haiku', tool: null, input: 'a haiku' },
  ],
  runId: 'run_1',
  results,
};

function given(...events: RecipeEvent[]) {
  const state = events.reduce(recipeDecider.evolve, recipeDecider.initialState);
  return { when: (command: RecipeCommand) => recipeDecider.decide(command, state, NOW) };
}

describe('recipe', () => {
  it('given no recipe, when created and saved, then version 1, one event per action, and the save counting completed actions', () => {
    const events = given().when(create);
    expect(events.map((e) => e.type)).toEqual(['RecipeCreated', 'RecipeActionCompleted', 'RecipeActionCompleted', 'RecipeSaved']);
    expect(events[0].data).toMatchObject({ version: 1, name: 'adder', flows: [{ flow_id: 'p1:v1' }] });
    expect(events[3].data).toMatchObject({ version: 1, actions_completed: 1 });
  });

  it('given a saved version, when created again, then version 2 with the same recipe id', () => {
    const first = given().when(create);
    const events = given(...first).when({ ...create, recipeId: 'recipe_other', runId: 'run_2' });
    expect(events[0].data).toMatchObject({ version: 2, recipe_id: 'recipe_1' });
  });

  it('given a run already recorded, when the same run id comes again, then nothing new', () => {
    const first = given().when(create);
    expect(given(...first).when(create)).toEqual([]);
  });

  it('given no saved recipe, when reused, then 404', () => {
    expect(() => given().when({ kind: 'reuse', runId: 'r', results })).toThrow('no saved recipe for this prompt_id');
  });

  it('given a saved recipe, when reused, then the replayed actions and the reuse of that version', () => {
    const events = given(...given().when(create)).when({ kind: 'reuse', runId: 'run_9', results });
    expect(events.map((e) => e.type)).toEqual(['RecipeActionCompleted', 'RecipeActionCompleted', 'RecipeReused']);
    expect(events[2].data).toMatchObject({ version: 1, run_id: 'run_9', actions_completed: 1 });
  });

  it('given a very long output, when recorded, then it is cut', () => {
    const long = [{ ...results[0], output: 'x'.repeat(5000) }];
    const events = given().when({ ...create, results: long });
    expect((events[1].data as { output: string }).output).toHaveLength(2000);
  });
});
