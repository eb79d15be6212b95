import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { CompleteSubtask, DispatchSubtasks, FailSubtask } from '../modules/goals/goals.commands';
import type { HiveResult } from '../modules/hive/hive-messages';
import { dispatchFor, goalCommandFor, subtaskTaskFor } from './goal-dispatch.saga';

const recorded = (type: string, data: Record<string, unknown>, nodeId = 'node-a', streamId = 'goal-g1'): RecordedEvent => ({
  streamId,
  type,
  revision: 0,
  position: 7,
  data: data as RecordedEvent['data'],
  recordedAt: 't',
  metadata: { eventId: 'ev7', correlationId: 'req-1', causationId: null, actor: 'a', nodeId, occurredAt: 't', schemaVersion: 1 },
});

const result = (change: Partial<HiveResult> = {}): HiveResult => ({
  task_id: 'g1:s1:2',
  kind: 'subtask',
  attempt: 2,
  origin_node: 'node-a',
  correlation_id: 'req-1',
  goal_id: 'g1',
  subtask_id: 's1',
  status: 'completed',
  result: 'the answer',
  source: 'model',
  model: 'm1',
  node_id: 'node-b',
  ...change,
});

describe('goal dispatch saga', () => {
  it('given GoalAccepted of this node, then it dispatches, caused by the event', () => {
    const command = dispatchFor(recorded('GoalAccepted', { goal_id: 'g1' }), 'node-a');
    expect(command).toBeInstanceOf(DispatchSubtasks);
    expect(command).toMatchObject({ payload: { goalId: 'g1' }, context: { actor: 'system:goal-dispatch', correlationId: 'req-1', causationId: 'ev7' } });
  });

  it('given SubtaskFailed, then it re-dispatches only when the failure will be retried', () => {
    expect(dispatchFor(recorded('SubtaskFailed', { subtask_id: 's1', will_retry: true }), 'node-a')).toBeInstanceOf(DispatchSubtasks);
    expect(dispatchFor(recorded('SubtaskFailed', { subtask_id: 's1', will_retry: false }), 'node-a')).toBeNull();
  });

  it('given another node’s goal, another stream or another event, then nothing', () => {
    expect(dispatchFor(recorded('GoalAccepted', {}, 'node-b'), 'node-a')).toBeNull();
    expect(dispatchFor(recorded('GoalAccepted', {}, 'node-a', 'wallet-g1'), 'node-a')).toBeNull();
    expect(dispatchFor(recorded('SubtaskCompleted', {}), 'node-a')).toBeNull();
  });

  it('turns SubtaskDispatched of this node into a hive task named goal:subtask:attempt', () => {
    const event = recorded('SubtaskDispatched', { goal_id: 'g1', subtask_id: 's2', description: 'do it', attempt: 3, dispatched_at: 'd', deadline: '2026-01-01T00:00:00.000Z' });
    expect(subtaskTaskFor(event, 'node-a')).toEqual({
      task_id: 'g1:s2:3',
      kind: 'subtask',
      goal_id: 'g1',
      subtask_id: 's2',
      attempt: 3,
      description: 'do it',
      origin_node: 'node-a',
      deadline: '2026-01-01T00:00:00.000Z',
      correlation_id: 'req-1',
    });
    expect(subtaskTaskFor(event, 'node-b')).toBeNull();
    expect(subtaskTaskFor(recorded('GoalAccepted', {}), 'node-a')).toBeNull();
  });

  it('turns results addressed to this node into CompleteSubtask or FailSubtask', () => {
    const done = goalCommandFor(result(), 'node-a');
    expect(done).toBeInstanceOf(CompleteSubtask);
    expect(done?.payload).toEqual({ goalId: 'g1', subtaskId: 's1', attempt: 2, result: 'the answer', nodeId: 'node-b', source: 'model', model: 'm1' });
    const failed = goalCommandFor(result({ status: 'failed', result: 'model down' }), 'node-a');
    expect(failed).toBeInstanceOf(FailSubtask);
    expect(failed).toMatchObject({ payload: { goalId: 'g1', subtaskId: 's1', attempt: 2, error: 'model down' }, context: { actor: 'node:node-b', correlationId: 'req-1' } });
  });

  it('ignores results for another origin and expert results', () => {
    expect(goalCommandFor(result({ origin_node: 'node-c' }), 'node-a')).toBeNull();
    expect(goalCommandFor(result({ kind: 'expert', run_id: 'r1' }), 'node-a')).toBeNull();
  });
});
