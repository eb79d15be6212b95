import { DomainError } from '../shared/domain-error';
import { type GoalCommand, goalDecider, type GoalEvent, type GoalState, goalIdOf, goalStreamId } from './goal';

const t0 = new Date('2026-04-10T10:00:00.000Z');
const later = (sec: number) => new Date(t0.getTime() + sec * 1000);

const acceptCommand: GoalCommand = {
  kind: 'accept',
  goalId: 'g1',
  userId: 'u1',
  goal: ' plan a trip ',
  subtasks: ['book a flight', 'book a hotel'],
  plannedBy: 'client',
  timeoutSec: 60,
  maxAttempts: 2,
};

/** Folds events into state, deciding each command against the state so far (given/when/then). */
function run(commands: [GoalCommand, Date][], state: GoalState = goalDecider.initialState): { state: GoalState; events: GoalEvent[] } {
  const events: GoalEvent[] = [];
  for (const [command, at] of commands) {
    const produced = goalDecider.decide(command, state, at);
    events.push(...produced);
    state = produced.reduce(goalDecider.evolve, state);
  }
  return { state, events };
}

const complete = (subtaskId: string, attempt: number, result = `done ${subtaskId}`): GoalCommand => ({
  kind: 'complete',
  subtaskId,
  attempt,
  result,
  nodeId: 'node-b',
  source: 'offline',
  model: 'offline',
});

const accepted = () => run([[acceptCommand, t0]]);
const dispatched = () => run([[{ kind: 'dispatch' }, t0]], accepted().state);

describe('goal aggregate', () => {
  it('names its stream goal-<id> and reads the id back', () => {
    expect(goalStreamId('abc')).toBe('goal-abc');
    expect(goalIdOf('goal-abc')).toBe('abc');
    expect(goalIdOf('wallet-abc')).toBeNull();
  });

  it('given nothing, when accepting, then GoalAccepted numbers the subtasks s1..sN; a repeat records nothing', () => {
    const { state, events } = accepted();
    expect(events).toEqual([
      {
        type: 'GoalAccepted',
        data: {
          goal_id: 'g1',
          user_id: 'u1',
          goal: 'plan a trip',
          subtasks: [
            { subtask_id: 's1', description: 'book a flight' },
            { subtask_id: 's2', description: 'book a hotel' },
          ],
          planned_by: 'client',
          accepted_at: t0.toISOString(),
          timeout_sec: 60,
          max_attempts: 2,
        },
      },
    ]);
    expect(goalDecider.decide(acceptCommand, state, t0)).toEqual([]);
  });

  it.each([
    [{ subtasks: [] }, 'a goal has 1 to 20 subtasks (got 0)'],
    [{ subtasks: Array.from({ length: 21 }, (_, i) => `step ${i}`) }, 'a goal has 1 to 20 subtasks (got 21)'],
    [{ subtasks: ['ok', '  '] }, 'each subtask is 1 to 2000 characters'],
    [{ goal: ' ' }, 'goal must not be empty'],
    [{ timeoutSec: 0 }, 'timeout_sec must be an integer from 1 to 86400'],
    [{ maxAttempts: 11 }, 'max_attempts must be an integer from 1 to 10'],
  ])('given a bad accept %p, then it is refused as invalid', (change, message) => {
    expect(() => goalDecider.decide({ ...acceptCommand, ...change } as GoalCommand, goalDecider.initialState, t0)).toThrow(
      new DomainError('invalid', message),
    );
  });

  it('given an accepted goal, when dispatching, then each subtask gets attempt 1 with a deadline; a repeat dispatches nothing', () => {
    const { state, events } = dispatched();
    expect(events).toEqual([
      {
        type: 'SubtaskDispatched',
        data: { goal_id: 'g1', subtask_id: 's1', description: 'book a flight', attempt: 1, dispatched_at: t0.toISOString(), deadline: later(60).toISOString() },
      },
      {
        type: 'SubtaskDispatched',
        data: { goal_id: 'g1', subtask_id: 's2', description: 'book a hotel', attempt: 1, dispatched_at: t0.toISOString(), deadline: later(60).toISOString() },
      },
    ]);
    expect(state.status).toBe('running');
    expect(goalDecider.decide({ kind: 'dispatch' }, state, later(1))).toEqual([]);
  });

  it('given nothing, when dispatching or completing, then nothing is recorded', () => {
    expect(goalDecider.decide({ kind: 'dispatch' }, goalDecider.initialState, t0)).toEqual([]);
    expect(goalDecider.decide(complete('s1', 1), goalDecider.initialState, t0)).toEqual([]);
    expect(goalDecider.decide({ kind: 'expire' }, goalDecider.initialState, t0)).toEqual([]);
  });

  it('given a result before any dispatch, then it is ignored', () => {
    expect(goalDecider.decide(complete('s1', 1), accepted().state, t0)).toEqual([]);
  });

  it('given both subtasks complete, then the last one completes the goal in the same decision', () => {
    const { state, events } = run([[complete('s1', 1), later(5)], [complete('s2', 1), later(6)]], dispatched().state);
    expect(events.map((e) => e.type)).toEqual(['SubtaskCompleted', 'SubtaskCompleted', 'GoalCompleted']);
    expect(events[0].data).toEqual({
      subtask_id: 's1',
      attempt: 1,
      result: 'done s1',
      node_id: 'node-b',
      source: 'offline',
      model: 'offline',
      completed_at: later(5).toISOString(),
    });
    expect(state.status).toBe('completed');
  });

  it('given a completed subtask, when its result arrives again (redelivery), then nothing is recorded', () => {
    const { state } = run([[complete('s1', 1), later(5)]], dispatched().state);
    expect(goalDecider.decide(complete('s1', 1, 'other'), state, later(6))).toEqual([]);
    expect(goalDecider.decide({ kind: 'fail', subtaskId: 's1', attempt: 1, error: 'x' }, state, later(6))).toEqual([]);
  });

  it('given a passed deadline, when expiring, then the attempt fails with timeout and will_retry; redispatch makes attempt 2', () => {
    const early = goalDecider.decide({ kind: 'expire' }, dispatched().state, later(59));
    expect(early).toEqual([]);
    const { state, events } = run([[{ kind: 'expire' }, later(60)], [{ kind: 'dispatch' }, later(61)]], dispatched().state);
    expect(events.map((e) => [e.type, (e.data as { subtask_id?: string }).subtask_id])).toEqual([
      ['SubtaskFailed', 's1'],
      ['SubtaskFailed', 's2'],
      ['SubtaskDispatched', 's1'],
      ['SubtaskDispatched', 's2'],
    ]);
    expect(events[0].data).toEqual({ subtask_id: 's1', attempt: 1, reason: 'timeout', error: null, will_retry: true, failed_at: later(60).toISOString() });
    expect(events[2].data).toMatchObject({ attempt: 2, deadline: later(121).toISOString() });
    expect(state.subtasks.map((s) => [s.status, s.attempts])).toEqual([
      ['dispatched', 2],
      ['dispatched', 2],
    ]);
  });

  it('given the last attempt times out, then the subtask fails for good and the goal fails once', () => {
    const { state, events } = run(
      [
        [{ kind: 'expire' }, later(60)],
        [{ kind: 'dispatch' }, later(60)],
        [{ kind: 'expire' }, later(120)],
      ],
      dispatched().state,
    );
    const last = events.slice(4);
    expect(last.map((e) => e.type)).toEqual(['SubtaskFailed', 'SubtaskFailed', 'GoalFailed']);
    expect(last[0].data).toMatchObject({ attempt: 2, will_retry: false });
    expect(last[2].data).toEqual({ failed_at: later(120).toISOString(), reason: 'subtask s1 failed after 2 attempts' });
    expect(state.status).toBe('failed');
    // a failed goal ignores everything, also a late result
    expect(goalDecider.decide(complete('s1', 2), state, later(121))).toEqual([]);
    expect(goalDecider.decide({ kind: 'dispatch' }, state, later(121))).toEqual([]);
  });

  it('given a worker error on the current attempt, then the attempt fails with reason error; a stale attempt fails nothing', () => {
    const retried = run([[{ kind: 'expire' }, later(60)], [{ kind: 'dispatch' }, later(60)]], dispatched().state).state;
    expect(goalDecider.decide({ kind: 'fail', subtaskId: 's1', attempt: 1, error: 'boom' }, retried, later(61))).toEqual([]);
    expect(goalDecider.decide({ kind: 'fail', subtaskId: 's1', attempt: 2, error: 'boom' }, retried, later(61))).toEqual([
      { type: 'SubtaskFailed', data: { subtask_id: 's1', attempt: 2, reason: 'error', error: 'boom', will_retry: false, failed_at: later(61).toISOString() } },
      { type: 'GoalFailed', data: { failed_at: later(61).toISOString(), reason: 'subtask s1 failed after 2 attempts' } },
    ]);
  });

  it('given attempt 2 in flight, when the late result of attempt 1 arrives, then it completes the subtask; attempt 2 is ignored', () => {
    const retried = run([[{ kind: 'expire' }, later(60)], [{ kind: 'dispatch' }, later(60)]], dispatched().state).state;
    const { state, events } = run([[complete('s1', 1, 'late'), later(70)], [complete('s1', 2, 'on time'), later(71)]], retried);
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ subtask_id: 's1', attempt: 1, result: 'late' });
    expect(state.subtasks[0].status).toBe('completed');
  });

  it('given a subtask waiting for its retry, when the old attempt result arrives, then it completes', () => {
    const waiting = run([[{ kind: 'expire' }, later(60)]], dispatched().state).state;
    expect(waiting.subtasks[0].status).toBe('pending');
    expect(goalDecider.decide(complete('s1', 1), waiting, later(61)).map((e) => e.type)).toEqual(['SubtaskCompleted']);
  });

  it('given a result for an attempt never dispatched or an unknown subtask, then nothing is recorded', () => {
    expect(goalDecider.decide(complete('s1', 2), dispatched().state, later(1))).toEqual([]);
    expect(goalDecider.decide(complete('s9', 1), dispatched().state, later(1))).toEqual([]);
  });

  it('cuts very long results', () => {
    const [event] = goalDecider.decide(complete('s1', 1, 'x'.repeat(30_000)), dispatched().state, later(1));
    expect((event.data as { result: string }).result).toHaveLength(20_000);
  });
});
