import type { DomainEventOf } from '../../aggregates/events';
import type { GoalEvent } from '../../aggregates/goals/goal';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { type GoalDoc, GOALS, goalsProjection as projection } from './goals.projection';

type GoalEventType = GoalEvent['type'];
/** An event of goal g1's stream, recorded by node-a. */
const onGoal = <T extends GoalEventType>(type: T, data: DomainEventOf<T>['data'], streamId = 'goal-g1') =>
  recorded(type, data, { streamId, nodeId: 'node-a' });

const accepted = () =>
  onGoal('GoalAccepted', {
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
  });
const dispatched = (subtask: string, attempt: number) =>
  onGoal('SubtaskDispatched', { goal_id: 'g1', subtask_id: subtask, description: subtask, attempt, dispatched_at: 'd', deadline: `dl${attempt}` });
const completed = (subtask: string, attempt: number, result: string, node: string, source: 'model' | 'offline', model: string) =>
  onGoal('SubtaskCompleted', { subtask_id: subtask, attempt, result, node_id: node, source, model, completed_at: 'c' });

/** s1 completes on node-b; s2 times out and is to be retried */
const midway = () => [
  accepted(),
  dispatched('s1', 1),
  dispatched('s2', 1),
  onGoal('SubtaskFailed', { subtask_id: 's2', attempt: 1, reason: 'timeout', error: null, will_retry: true, failed_at: 'f' }),
  completed('s1', 1, 'r1', 'node-b', 'offline', 'offline'),
];
/** s2's retry completes on node-c, then the goal */
const toCompletion = () => [
  dispatched('s2', 2),
  completed('s2', 2, 'r2', 'node-c', 'model', 'm'),
  onGoal('GoalCompleted', { completed_at: '2026-01-01T00:01:00.000Z' }),
];
const goal = (store: EmbeddedReadStore) => store.collection<GoalDoc>(GOALS).findOne({ _id: 'g1' });

describe('goals projection', () => {
  it('given a goal with one sub-task done and one timed out, then the goal runs and each sub-task shows its state', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, ...midway());
    expect(await goal(store)).toMatchObject({
      status: 'running',
      origin_node: 'node-a',
      subtask_ids: ['s1', 's2'],
      subtasks: {
        s1: { status: 'completed', attempts: 1, result: 'r1', node_id: 'node-b', source: 'offline', deadline: null },
        s2: { status: 'pending', attempts: 1, last_error: 'attempt 1 timed out', node_id: null },
      },
    });
  });

  it('given a goal through a retry to completion, then it is completed with the retried sub-task result', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, ...midway(), ...toCompletion());
    expect(await goal(store)).toMatchObject({
      status: 'completed',
      completed_at: '2026-01-01T00:01:00.000Z',
      subtasks: { s2: { status: 'completed', attempts: 2, result: 'r2', node_id: 'node-c', model: 'm' } },
    });
  });

  it('given a completed goal, when its events are replayed, then the document does not change', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [...midway(), ...toCompletion()];
    await applyAll(projection, store, ...events);
    const done = await goal(store);
    await applyAll(projection, store, ...events);
    expect(await goal(store)).toEqual(done);
  });

  it('given a failed goal, then the reason and the failed subtask show', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      onGoal('GoalAccepted', {
        goal_id: 'g1',
        user_id: 'u1',
        goal: 'g',
        subtasks: [{ subtask_id: 's1', description: 'one' }],
        planned_by: 'client',
        accepted_at: 'a',
        timeout_sec: 1,
        max_attempts: 1,
      }),
      dispatched('s1', 1),
      onGoal('SubtaskFailed', { subtask_id: 's1', attempt: 1, reason: 'error', error: 'boom', will_retry: false, failed_at: 'f' }),
      onGoal('GoalFailed', { failed_at: 'f', reason: 'subtask s1 failed after 1 attempt' }),
    );
    expect(await goal(store)).toMatchObject({
      status: 'failed',
      failure_reason: 'subtask s1 failed after 1 attempt',
      subtasks: { s1: { status: 'failed', last_error: 'attempt 1 failed: boom' } },
    });
  });

  it('given a goal event on a stream that is no goal, then nothing is written', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, onGoal('GoalCompleted', { completed_at: 'c' }, 'other-g1'));
    expect(await store.collection(GOALS).countDocuments({})).toBe(0);
  });
});
