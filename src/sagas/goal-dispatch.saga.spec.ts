import type { AppConfig } from '../config/config';
import { DispatchSubtasks } from '../modules/goals/goals.commands';
import { recordedEvent } from '../../test/support/saga-kit';
import { GoalDispatchSaga } from './goal-dispatch.saga';

const recorded = (type: string, data: Record<string, unknown>, nodeId = 'node-a', streamId = 'goal-g1') =>
  recordedEvent(type, data, { nodeId, streamId, position: 7, correlationId: 'req-1' });

const saga = new GoalDispatchSaga({ nodeId: 'node-a' } as AppConfig);

describe('goal dispatch saga', () => {
  it('given GoalAccepted of this node, then it dispatches, caused by the event', () => {
    const [command, ...more] = saga.react(recorded('GoalAccepted', { goal_id: 'g1' }));
    expect(more).toEqual([]);
    expect(command).toBeInstanceOf(DispatchSubtasks);
    expect(command).toMatchObject({ payload: { goalId: 'g1' }, context: { actor: 'system:goal-dispatch', correlationId: 'req-1', causationId: 'ev7' } });
  });

  it('given SubtaskFailed, then it re-dispatches only when the failure will be retried', () => {
    expect(saga.react(recorded('SubtaskFailed', { subtask_id: 's1', will_retry: true }))).toEqual([expect.any(DispatchSubtasks)]);
    expect(saga.react(recorded('SubtaskFailed', { subtask_id: 's1', will_retry: false }))).toEqual([]);
  });

  it('given another node’s goal, another stream or another event, then nothing', () => {
    expect(saga.react(recorded('GoalAccepted', {}, 'node-b'))).toEqual([]);
    expect(saga.react(recorded('GoalAccepted', {}, 'node-a', 'wallet-g1'))).toEqual([]);
    expect(saga.react(recorded('SubtaskCompleted', {}))).toEqual([]);
  });

  it('reacts to GoalAccepted and SubtaskFailed only', () => {
    expect(saga.eventTypes).toEqual(['GoalAccepted', 'SubtaskFailed']);
  });
});
