import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { A2A_AGENTS, type A2aAgentDoc, a2aAgentsProjection as projection } from './a2a-agents.projection';

const created = (version: number, name = 'unit helper') =>
  recorded('RecipeCreated', {
    recipe_id: 'recipe_1',
    user_id: 'u1',
    prompt_id: 'p1',
    name,
    goal: 'convert units',
    flows: [{ flow_id: 'p1:v1', actions: [{ index: 0, description: '10 km in miles', tool: 'unit_convert', input: '10 km' }, { index: 1, description: 'a poem', tool: null, input: 'x' }] }],
    version,
    created_at: `2026-04-10T00:00:0${version}.000Z`,
  });
const saved = (version: number) =>
  recorded('RecipeSaved', { recipe_id: 'recipe_1', version, run_id: `run_${version}`, actions_completed: 1, saved_at: `2026-04-10T00:00:0${version}.000Z` });
const doc = (store: EmbeddedReadStore) => store.collection<A2aAgentDoc>(A2A_AGENTS).findOne({ _id: 'recipe_1' });

describe('a2aAgents projection', () => {
  it('given a recipe created but not saved, then the agent is not registered', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, created(1));
    expect(await doc(store)).toMatchObject({ registered: false, owner_id: 'u1', prompt_id: 'p1' });
  });

  it('given a saved recipe, then a registered agent whose skill is tagged with the tools', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, created(1), saved(1));
    expect(await doc(store)).toMatchObject({
      agent_id: 'recipe_1',
      source: 'recipe',
      name: 'unit helper',
      description: 'convert units',
      version: 1,
      registered: true,
      registered_at: '2026-04-10T00:00:01.000Z',
      skills: [{ id: 'p1', name: 'unit helper', description: 'convert units', tags: ['recipe', 'unit_convert', 'language-model'] }],
    });
  });

  it('given a second version saved, then the card follows it and keeps the registration date', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, created(1), saved(1), created(2, 'renamed'), saved(2));
    expect(await doc(store)).toMatchObject({ name: 'renamed', version: 2, registered: true, registered_at: '2026-04-10T00:00:01.000Z' });
  });
});
