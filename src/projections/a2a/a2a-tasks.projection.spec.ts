import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { A2A_TASKS, type A2aTaskDoc, a2aTaskDocId, a2aTasksProjection as projection } from './a2a-tasks.projection';

const streamId = 'a2aTask-u1/t1';
const submitted = recorded(
  'A2aTaskSubmitted',
  { task_id: 't1', context_id: 'c1', user_id: 'u1', agent_id: 'recipe_1', prompt_id: 'p1', text_chars: 3, submitted_at: '2026-04-10T00:00:00.000Z' },
  { streamId },
);
const started = recorded('A2aTaskStarted', { task_id: 't1', started_at: '2026-04-10T00:00:01.000Z' }, { streamId });
const doc = (store: EmbeddedReadStore) => store.collection<A2aTaskDoc>(A2A_TASKS).findOne({ _id: a2aTaskDocId('u1', 't1') });

describe('a2aTasks projection', () => {
  it('given a submitted task, then it is found by caller and id in state submitted', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, submitted);
    expect(await doc(store)).toMatchObject({ task_id: 't1', context_id: 'c1', agent_id: 'recipe_1', state: 'submitted', content: null });
  });

  it('given a task that ran, then it is completed with the answer and the time of the change', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, submitted, started, recorded('A2aTaskCompleted', { task_id: 't1', response: 'done', completed_at: '2026-04-10T00:00:02.000Z' }, { streamId }));
    expect(await doc(store)).toMatchObject({ state: 'completed', content: 'done', timestamp: '2026-04-10T00:00:02.000Z' });
  });

  it('given a task canceled while working, then it is canceled', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, submitted, started, recorded('A2aTaskCanceled', { task_id: 't1', canceled_at: '2026-04-10T00:00:02.000Z' }, { streamId }));
    expect(await doc(store)).toMatchObject({ state: 'canceled' });
  });
});
