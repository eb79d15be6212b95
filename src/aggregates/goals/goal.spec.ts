import { deciderKit } from '../../../test/support/decider-kit';
import { type GoalCommand, goalDecider, type GoalEvent, goalIdOf, type GoalState, goalStreamId } from './goal';

const t0 = new Date('2026-04-10T10:00:00.000Z');
const later = (sec: number) => new Date(t0.getTime() + sec * 1000);
const { given } = deciderKit(goalDecider, t0);

const accept: GoalCommand = {
  kind: 'accept',
  goalId: 'g1',
  userId: 'u1',
  goal: ' plan a trip ',
  subtasks: ['book a flight', 'book a hotel'],
  plannedBy: 'client',
  timeoutSec: 60,
  maxAttempts: 2,
};
const dispatch: GoalCommand = { kind: 'dispatch' };
const expire: GoalCommand = { kind: 'expire' };
const complete = (subtaskId: string, attempt: number, result = `done ${subtaskId}`): GoalCommand => ({
  kind: 'complete',
  subtaskId,
  attempt,
  result,
  nodeId: 'node-b',
  source: 'offline',
  model: 'offline',
});
const fail = (subtaskId: string, attempt: number, error = 'boom'): GoalCommand => ({ kind: 'fail', subtaskId, attempt, error });

const accepted: GoalEvent = {
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
};
const DESCRIPTIONS: Record<string, string> = { s1: 'book a flight', s2: 'book a hotel' };
/** Dispatched at `atSec` with the goal's 60 s timeout. */
const dispatched = (subtaskId: string, attempt: number, atSec: number): GoalEvent => ({
  type: 'SubtaskDispatched',
  data: {
    goal_id: 'g1',
    subtask_id: subtaskId,
    description: DESCRIPTIONS[subtaskId],
    attempt,
    dispatched_at: later(atSec).toISOString(),
    deadline: later(atSec + 60).toISOString(),
  },
});
const completed = (subtaskId: string, attempt: number, atSec: number, result = `done ${subtaskId}`): GoalEvent => ({
  type: 'SubtaskCompleted',
  data: { subtask_id: subtaskId, attempt, result, node_id: 'node-b', source: 'offline', model: 'offline', completed_at: later(atSec).toISOString() },
});
const timedOut = (subtaskId: string, attempt: number, atSec: number, willRetry: boolean): GoalEvent => ({
  type: 'SubtaskFailed',
  data: { subtask_id: subtaskId, attempt, reason: 'timeout', error: null, will_retry: willRetry, failed_at: later(atSec).toISOString() },
});
/** The sub-tasks of a goal's state (none before it is accepted). */
const subtasksOf = (state: GoalState) => (state.status === 'none' ? [] : state.subtasks);
const goalFailed = (atSec: number, reason: string): GoalEvent => ({ type: 'GoalFailed', data: { failed_at: later(atSec).toISOString(), reason } });

/** Both sub-tasks in flight, attempt 1, dispatched at t0. */
const inFlight = [accepted, dispatched('s1', 1, 0), dispatched('s2', 1, 0)];
/** Attempt 1 of both timed out at 60 s; both wait for their retry. */
const waiting = [...inFlight, timedOut('s1', 1, 60, true), timedOut('s2', 1, 60, true)];
/** Attempt 2 of both in flight, dispatched at 60 s (the last attempt). */
const retried = [...waiting, dispatched('s1', 2, 60), dispatched('s2', 2, 60)];

describe('goal aggregate', () => {
  it('names its stream goal-<id> and reads the id back', () => {
    expect(goalStreamId('abc')).toBe('goal-abc');
    expect(goalIdOf('goal-abc')).toBe('abc');
    expect(goalIdOf('wallet-abc')).toBeNull();
  });

  it('given nothing, when accepting, then GoalAccepted trims the goal and numbers the subtasks s1..sN', () =>
    given().when(accept).then(accepted));

  it('given an accepted goal, when accepting it again, then nothing is recorded', () => given(accepted).when(accept).thenNothing());

  it.each([
    [{ subtasks: [] }, 'a goal has 1 to 20 subtasks (got 0)'],
    [{ subtasks: Array.from({ length: 21 }, (_, i) => `step ${i}`) }, 'a goal has 1 to 20 subtasks (got 21)'],
    [{ subtasks: ['ok', '  '] }, 'each subtask is 1 to 2000 characters'],
    [{ goal: ' ' }, 'goal must not be empty'],
    [{ timeoutSec: 0 }, 'timeout_sec must be an integer from 1 to 86400'],
    [{ maxAttempts: 11 }, 'max_attempts must be an integer from 1 to 10'],
  ])('given nothing, when accepting %p, then it is refused as invalid', (change, message) =>
    given()
      .when({ ...accept, ...change } as GoalCommand)
      .thenRefused('invalid', message));

  it('given an accepted goal, when dispatching, then each subtask gets attempt 1 with a deadline', () =>
    given(accepted).when(dispatch).then(dispatched('s1', 1, 0), dispatched('s2', 1, 0)));

  it('given an accepted goal, when dispatching, then the goal is running', () => expect(given(accepted).when(dispatch).state().status).toBe('running'));

  it('given subtasks in flight, when dispatching again, then nothing is dispatched', () => given(...inFlight).when(dispatch, later(1)).thenNothing());

  it.each([
    ['dispatching', dispatch],
    ['completing', complete('s1', 1)],
    ['expiring', expire],
  ])('given nothing, when %s, then nothing is recorded', (_, command) => given().when(command).thenNothing());

  it('given an accepted goal, when a result arrives before any dispatch, then it is ignored', () =>
    given(accepted).when(complete('s1', 1)).thenNothing());

  it('given subtasks in flight, when one completes, then SubtaskCompleted carries the result, the node and the model', () =>
    given(...inFlight)
      .when(complete('s1', 1), later(5))
      .then(completed('s1', 1, 5)));

  it('given one subtask left, when it completes, then the goal completes in the same decision', () =>
    given(...inFlight, completed('s1', 1, 5))
      .when(complete('s2', 1), later(6))
      .then(completed('s2', 1, 6), { type: 'GoalCompleted', data: { completed_at: later(6).toISOString() } }));

  it('given one subtask left, when it completes, then the goal is completed', () =>
    expect(given(...inFlight, completed('s1', 1, 5)).when(complete('s2', 1), later(6)).state().status).toBe('completed'));

  it('given a completed subtask, when its result arrives again (redelivery), then nothing is recorded', () =>
    given(...inFlight, completed('s1', 1, 5))
      .when(complete('s1', 1, 'other'), later(6))
      .thenNothing());

  it('given a completed subtask, when its attempt fails, then nothing is recorded', () =>
    given(...inFlight, completed('s1', 1, 5))
      .when(fail('s1', 1), later(6))
      .thenNothing());

  it('given subtasks in flight, when expiring before the deadline, then nothing is recorded', () =>
    given(...inFlight).when(expire, later(59)).thenNothing());

  it('given subtasks in flight, when expiring at the deadline, then each attempt fails with timeout and will_retry', () =>
    given(...inFlight)
      .when(expire, later(60))
      .then(timedOut('s1', 1, 60, true), timedOut('s2', 1, 60, true)));

  it('given timed-out subtasks with attempts left, when dispatching, then attempt 2 goes out with a new deadline', () =>
    given(...waiting)
      .when(dispatch, later(61))
      .then(dispatched('s1', 2, 61), dispatched('s2', 2, 61)));

  it('given timed-out subtasks with attempts left, when dispatching, then both are in flight on attempt 2 until the new deadline', () =>
    expect(subtasksOf(given(...waiting).when(dispatch, later(61)).state())).toEqual([
      { id: 's1', description: 'book a flight', status: 'dispatched', attempts: 2, deadline: later(121).toISOString() },
      { id: 's2', description: 'book a hotel', status: 'dispatched', attempts: 2, deadline: later(121).toISOString() },
    ]));

  it('given the last attempt in flight, when it times out, then the subtasks fail for good and the goal fails once', () =>
    given(...retried)
      .when(expire, later(120))
      .then(timedOut('s1', 2, 120, false), timedOut('s2', 2, 120, false), goalFailed(120, 'subtask s1 failed after 2 attempts')));

  const failedGoal = [...retried, timedOut('s1', 2, 120, false), timedOut('s2', 2, 120, false), goalFailed(120, 'subtask s1 failed after 2 attempts')];

  it('given the last attempt timed out, then the goal is failed', () => expect(given(...failedGoal).state().status).toBe('failed'));

  it('given a failed goal, when a late result arrives, then nothing is recorded', () => given(...failedGoal).when(complete('s1', 2), later(121)).thenNothing());

  it('given a failed goal, when dispatching, then nothing is recorded', () => given(...failedGoal).when(dispatch, later(121)).thenNothing());

  it('given attempt 2 in flight, when attempt 1 reports a worker error, then the stale failure records nothing', () =>
    given(...retried).when(fail('s1', 1), later(61)).thenNothing());

  it('given the last attempt in flight, when it reports a worker error, then it fails with reason error and the goal fails', () =>
    given(...retried)
      .when(fail('s1', 2), later(61))
      .then(
        { type: 'SubtaskFailed', data: { subtask_id: 's1', attempt: 2, reason: 'error', error: 'boom', will_retry: false, failed_at: later(61).toISOString() } },
        goalFailed(61, 'subtask s1 failed after 2 attempts'),
      ));

  it('given attempt 2 in flight, when the late result of attempt 1 arrives, then it completes the subtask', () =>
    given(...retried)
      .when(complete('s1', 1, 'late'), later(70))
      .then(completed('s1', 1, 70, 'late')));

  it('given a subtask completed by a late result, when attempt 2 reports, then it is ignored', () =>
    given(...retried, completed('s1', 1, 70, 'late'))
      .when(complete('s1', 2, 'on time'), later(71))
      .thenNothing());

  it('given a subtask completed by a late result, then it stays completed, with no deadline left', () =>
    expect(subtasksOf(given(...retried, completed('s1', 1, 70, 'late')).state())[0]).toEqual({
      id: 's1',
      description: 'book a flight',
      status: 'completed',
      attempts: 2,
    }));

  it('given a timed-out subtask, then it waits for its retry, with no deadline', () =>
    expect(subtasksOf(given(...waiting).state())[0]).toEqual({ id: 's1', description: 'book a flight', status: 'pending', attempts: 1 }));

  it('given a subtask waiting for its retry, when the old attempt result arrives, then it completes', () =>
    given(...waiting)
      .when(complete('s1', 1), later(61))
      .then(completed('s1', 1, 61)));

  it('given subtasks in flight, when a result names an attempt never dispatched, then nothing is recorded', () =>
    given(...inFlight).when(complete('s1', 2), later(1)).thenNothing());

  it('given subtasks in flight, when a result names an unknown subtask, then nothing is recorded', () =>
    given(...inFlight).when(complete('s9', 1), later(1)).thenNothing());

  it('given subtasks in flight, when a very long result arrives, then it is cut to 20000 characters', () => {
    const [event] = given(...inFlight).when(complete('s1', 1, 'x'.repeat(30_000)), later(1)).events();
    expect((event.data as { result: string }).result).toHaveLength(20_000);
  });
});
