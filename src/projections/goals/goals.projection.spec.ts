import type { GoalEvent } from '../../aggregates/goals/goal';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import { BatchedProjectionWriter } from '../../infrastructure/projections/batched-writer';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { type GoalDoc, GOALS, goalsProjection } from './goals.projection';

let position = 0;
const recorded = (event: GoalEvent, streamId = 'goal-g1'): RecordedEvent => {
  position += 1;
  return {
    streamId,
    type: event.type,
    revision: position - 1,
    position,
    data: event.data as unknown as RecordedEvent['data'],
    recordedAt: 't',
    metadata: { eventId: `e${position}`, correlationId: 'c', causationId: null, actor: 'a', nodeId: 'node-a', occurredAt: `t${position}`, schemaVersion: 1 },
  };
};

async function apply(store: EmbeddedReadStore, events: RecordedEvent[]): Promise<void> {
  const writer = new BatchedProjectionWriter(store);
  for (const event of events) await goalsProjection.apply(event, writer);
  await writer.flush();
}

describe('goals projection', () => {
  beforeEach(() => {
    position = 0;
  });

  it('given a goal through retries to completion, then the document shows every subtask, and a replay changes nothing', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [
      recorded({
        type: 'GoalAccepted',
        data: {
          goal_id: 'g1',
          user_id: 'u1',
          goal: 'plan',
          subtasks: [
            { subtask_id: 's1', description: 'one' },
            { subtask_id: 's2', description: 'two' },
          ],
          planned_by: 'offline',
          accepted_at: '2026-01-01T00:00:00.000Z',
          timeout_sec: 30,
          max_attempts: 3,
        },
      }),
      recorded({ type: 'SubtaskDispatched', data: { goal_id: 'g1', subtask_id: 's1', description: 'one', attempt: 1, dispatched_at: 'd', deadline: 'dl1' } }),
      recorded({ type: 'SubtaskDispatched', data: { goal_id: 'g1', subtask_id: 's2', description: 'two', attempt: 1, dispatched_at: 'd', deadline: 'dl1' } }),
      recorded({ type: 'SubtaskFailed', data: { subtask_id: 's2', attempt: 1, reason: 'timeout', error: null, will_retry: true, failed_at: 'f' } }),
      recorded({ type: 'SubtaskCompleted', data: { subtask_id: 's1', attempt: 1, result: 'r1', node_id: 'node-b', source: 'offline', model: 'offline', completed_at: 'c' } }),
    ];
    await apply(store, events);
    const midway = await store.collection<GoalDoc>(GOALS).findOne({ _id: 'g1' });
    expect(midway).toMatchObject({
      status: 'running',
      origin_node: 'node-a',
      subtask_ids: ['s1', 's2'],
      subtasks: {
        s1: { status: 'completed', attempts: 1, result: 'r1', node_id: 'node-b', source: 'offline', deadline: null },
        s2: { status: 'pending', attempts: 1, last_error: 'attempt 1 timed out', node_id: null },
      },
    });

    const rest = [
      recorded({ type: 'SubtaskDispatched', data: { goal_id: 'g1', subtask_id: 's2', description: 'two', attempt: 2, dispatched_at: 'd', deadline: 'dl2' } }),
      recorded({ type: 'SubtaskCompleted', data: { subtask_id: 's2', attempt: 2, result: 'r2', node_id: 'node-c', source: 'model', model: 'm', completed_at: 'c' } }),
      recorded({ type: 'GoalCompleted', data: { completed_at: '2026-01-01T00:01:00.000Z' } }),
    ];
    await apply(store, rest);
    await apply(store, [...events, ...rest]);
    const done = await store.collection<GoalDoc>(GOALS).findOne({ _id: 'g1' });
    expect(done).toMatchObject({
      status: 'completed',
      completed_at: '2026-01-01T00:01:00.000Z',
      subtasks: { s2: { status: 'completed', attempts: 2, result: 'r2', node_id: 'node-c', model: 'm' } },
    });
  });

  it('given a failed goal, then the reason and the failed subtask show', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await apply(store, [
      recorded({
        type: 'GoalAccepted',
        data: { goal_id: 'g1', user_id: 'u1', goal: 'g', subtasks: [{ subtask_id: 's1', description: 'one' }], planned_by: 'client', accepted_at: 'a', timeout_sec: 1, max_attempts: 1 },
      }),
      recorded({ type: 'SubtaskDispatched', data: { goal_id: 'g1', subtask_id: 's1', description: 'one', attempt: 1, dispatched_at: 'd', deadline: 'dl' } }),
      recorded({ type: 'SubtaskFailed', data: { subtask_id: 's1', attempt: 1, reason: 'error', error: 'boom', will_retry: false, failed_at: 'f' } }),
      recorded({ type: 'GoalFailed', data: { failed_at: 'f', reason: 'subtask s1 failed after 1 attempt' } }),
    ]);
    expect(await store.collection<GoalDoc>(GOALS).findOne({ _id: 'g1' })).toMatchObject({
      status: 'failed',
      failure_reason: 'subtask s1 failed after 1 attempt',
      subtasks: { s1: { status: 'failed', last_error: 'attempt 1 failed: boom' } },
    });
  });

  it('ignores events of other streams', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await apply(store, [recorded({ type: 'GoalCompleted', data: { completed_at: 'c' } }, 'other-g1')]);
    expect(await store.collection(GOALS).countDocuments({})).toBe(0);
  });
});
