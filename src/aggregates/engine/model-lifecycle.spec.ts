import { deciderKit } from '../../../test/support/decider-kit';
import { type ModelLifecycleCommand, modelLifecycleDecider } from './model-lifecycle';

const now = new Date('2026-11-23T10:00:00.000Z');
const at = now.toISOString();
const { given, history } = deciderKit(modelLifecycleDecider, now);

const priority = (value: string): ModelLifecycleCommand => ({ kind: 'setPriority', model: 'llava', nodeId: 'n1', priority: value as never, by: 'u1' });
const offload: ModelLifecycleCommand = { kind: 'offload', model: 'llava', nodeId: 'n1', by: 'u1' };
const evict: ModelLifecycleCommand = { kind: 'evict', model: 'llava', nodeId: 'n1', tool: 'vision', vramPressure: 0.97, threshold: 0.9, freedVramMb: 4800 };

describe('model lifecycle', () => {
  it('given a new model, then it is warm on the GPU', () => expect(given().state()).toEqual({ priority: 'warm', placement: 'gpu' }));

  it('when an admin sets a priority, then ModelPriorityChanged with the previous one', () =>
    given()
      .when(priority('pinned'))
      .then({ type: 'ModelPriorityChanged', data: { model: 'llava', node_id: 'n1', priority: 'pinned', previous: 'warm', changed_by: 'u1', changed_at: at } }));

  it('when the priority is already that, then nothing', () => given().when(priority('warm')).thenNothing());

  it('when the priority is not one of the five, then refused naming them', () =>
    given().when(priority('urgent')).thenRefused('invalid', 'priority must be one of pinned, hot, warm, cold, evictable'));

  it('when offloaded, then ModelOffloaded once', () => {
    given().when(offload).then({ type: 'ModelOffloaded', data: { model: 'llava', node_id: 'n1', from: 'gpu', to: 'cpu', offloaded_by: 'u1', offloaded_at: at } });
    given(...history(offload)).when(offload).thenNothing();
  });

  it('when evicted, then ModelEvicted with its priority and the pressure; a pinned model is never evicted', () => {
    expect(given(...history(priority('cold'))).when(evict).events()).toEqual([
      { type: 'ModelEvicted', data: { model: 'llava', node_id: 'n1', tool: 'vision', priority: 'cold', vram_pressure: 0.97, threshold: 0.9, freed_vram_mb: 4800, evicted_at: at } },
    ]);
    given(...history(priority('pinned'))).when(evict).thenRefused('conflict', 'model llava is pinned: it is never evicted');
  });
});
