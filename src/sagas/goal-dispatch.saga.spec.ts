import type { AppConfig } from '../config/config';
import { DispatchSubtasks } from '../modules/goals/goals.commands';
import { recordedEvent } from '../../test/support/saga-kit';
import { PressureGauge } from '../modules/engine/pressure-gauge';
import { GoalDispatchSaga } from './goal-dispatch.saga';

const recorded = (type: string, data: Record<string, unknown>, nodeId = 'node-a', streamId = 'goal-g1') =>
  recordedEvent(type, data, { nodeId, streamId, position: 7, correlationId: 'req-1' });

const saga = new GoalDispatchSaga({ nodeId: 'node-a' } as AppConfig);

describe('goal dispatch saga', () => {
  it('given GoalAccepted of this node, then it dispatches, caused by the event', async () => {
    const [command, ...more] = await saga.react(recorded('GoalAccepted', { goal_id: 'g1' }));
    expect(more).toEqual([]);
    expect(command).toBeInstanceOf(DispatchSubtasks);
    expect(command).toMatchObject({ payload: { goalId: 'g1' }, context: { actor: 'system:goal-dispatch', correlationId: 'req-1', causationId: 'ev7' } });
  });

  it('given SubtaskFailed, then it re-dispatches only when the failure will be retried', async () => {
    expect(await saga.react(recorded('SubtaskFailed', { subtask_id: 's1', will_retry: true }))).toEqual([expect.any(DispatchSubtasks)]);
    expect(await saga.react(recorded('SubtaskFailed', { subtask_id: 's1', will_retry: false }))).toEqual([]);
  });

  it('given another node’s goal, another stream or another event, then nothing', async () => {
    expect(await saga.react(recorded('GoalAccepted', {}, 'node-b'))).toEqual([]);
    expect(await saga.react(recorded('GoalAccepted', {}, 'node-a', 'wallet-g1'))).toEqual([]);
    expect(await saga.react(recorded('SubtaskCompleted', {}))).toEqual([]);
  });

  it('given system pressure, when it dispatches, then it first waits the throttle’s pause; nothing to dispatch waits nothing', async () => {
    const paces: string[] = [];
    class FakeGauge extends PressureGauge {
      async pace(): Promise<number> {
        paces.push('paced');
        return 100;
      }
    }
    const paced = new GoalDispatchSaga({ nodeId: 'node-a' } as AppConfig, new FakeGauge());
    expect(await paced.react(recorded('GoalAccepted', { goal_id: 'g1' }))).toEqual([expect.any(DispatchSubtasks)]);
    expect(await paced.react(recorded('GoalAccepted', {}, 'node-b'))).toEqual([]);
    expect(paces).toEqual(['paced']);
  });

  it('reacts to GoalAccepted and SubtaskFailed only', () => {
    expect(saga.eventTypes).toEqual(['GoalAccepted', 'SubtaskFailed']);
  });
});
