import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { ENGINE_MODELS, type EngineModelDoc, engineModelsProjection as projection } from './engine-models.projection';

const streamId = 'model-llava';
const doc = (store: EmbeddedReadStore) => store.collection<EngineModelDoc>(ENGINE_MODELS).findOne({ _id: 'llava' });

describe('engineModels projection', () => {
  it('given an eviction of a model never touched, then it keeps the defaults and counts the eviction', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const evicted = recorded(
      'ModelEvicted',
      { model: 'llava', node_id: 'n', tool: 'vision', priority: 'warm', vram_pressure: 0.95, threshold: 0.9, freed_vram_mb: 4800, evicted_at: 't1' },
      { streamId },
    );
    await applyAll(projection, store, evicted);
    expect(await doc(store)).toMatchObject({ priority: 'warm', placement: 'gpu', evictions: 1, last_eviction: { tool: 'vision', vram_pressure: 0.95, freed_vram_mb: 4800 } });
  });

  it('given a priority change and an offload, then both are kept with who and when', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const changed = recorded('ModelPriorityChanged', { model: 'llava', node_id: 'n', priority: 'pinned', previous: 'warm', changed_by: 'u1', changed_at: 't1' }, { streamId });
    const offloaded = recorded('ModelOffloaded', { model: 'llava', node_id: 'n', from: 'gpu', to: 'cpu', offloaded_by: 'u1', offloaded_at: 't2' }, { streamId });
    await applyAll(projection, store, changed, offloaded);
    expect(await doc(store)).toMatchObject({ priority: 'pinned', priority_changed_by: 'u1', placement: 'cpu', offloaded_at: 't2', evictions: 0, last_eviction: null });
  });
});
