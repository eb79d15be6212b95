/**
 * A goal split into sub-tasks that peer nodes run over the hive (issue 7,
 * item 6). Stream `goal-<goalId>`: the one consistency boundary of a goal, so
 * results, timeouts and dispatches that race serialise on its revision.
 *
 * Rules, all idempotent because the bus and the sagas deliver at least once:
 * - `dispatch` records SubtaskDispatched for every sub-task that waits
 *   (never dispatched, or failed with a retry left); a repeat finds nothing
 *   waiting and records nothing, so a redelivered trigger sends no task twice.
 * - `complete`: the first result of a sub-task wins, from any attempt (a late
 *   result of an old attempt still completes it when it is not done); later
 *   results are ignored. The goal completes with its last sub-task.
 * - `fail` (a worker's error) and `expire` (the deadline passed) fail the
 *   current attempt only; a failure of an older attempt changes nothing.
 *   `will_retry` while attempts remain; otherwise the goal fails.
 * - A completed or failed goal ignores everything.
 *
 * SubtaskDispatched also carries goal_id and description, so the relay that
 * turns it into a hive task needs nothing but the event.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider, DomainEvent } from '../shared/decider';

export const MAX_SUBTASKS = 20;
export const MAX_ATTEMPTS = 10;
export const MAX_TIMEOUT_SEC = 86_400;
export const MAX_DESCRIPTION_CHARS = 2000;
/** a result longer than this is cut (events stay small) */
export const MAX_RESULT_CHARS = 20_000;

export type PlannedBy = 'client' | 'model' | 'offline';
export type FailureReason = 'timeout' | 'error';
export type SubtaskStatus = 'pending' | 'dispatched' | 'completed' | 'failed';
export type GoalStatus = 'none' | 'accepted' | 'running' | 'completed' | 'failed';

export interface SubtaskSpec {
  subtask_id: string;
  description: string;
}

export type GoalAccepted = DomainEvent<
  'GoalAccepted',
  {
    goal_id: string;
    user_id: string;
    goal: string;
    subtasks: SubtaskSpec[];
    /** who split the goal: the client's own list, a language model, or the offline splitter */
    planned_by: PlannedBy;
    accepted_at: string;
    timeout_sec: number;
    max_attempts: number;
  }
>;

export type SubtaskDispatched = DomainEvent<
  'SubtaskDispatched',
  { goal_id: string; subtask_id: string; description: string; attempt: number; dispatched_at: string; deadline: string }
>;

export type SubtaskCompleted = DomainEvent<
  'SubtaskCompleted',
  { subtask_id: string; attempt: number; result: string; node_id: string; source: 'model' | 'offline'; model: string; completed_at: string }
>;

export type SubtaskFailed = DomainEvent<
  'SubtaskFailed',
  { subtask_id: string; attempt: number; reason: FailureReason; error: string | null; will_retry: boolean; failed_at: string }
>;

export type GoalCompleted = DomainEvent<'GoalCompleted', { completed_at: string }>;
export type GoalFailed = DomainEvent<'GoalFailed', { failed_at: string; reason: string }>;

export type GoalEvent = GoalAccepted | SubtaskDispatched | SubtaskCompleted | SubtaskFailed | GoalCompleted | GoalFailed;
export const GOAL_EVENT_TYPES: readonly GoalEvent['type'][] = [
  'GoalAccepted',
  'SubtaskDispatched',
  'SubtaskCompleted',
  'SubtaskFailed',
  'GoalCompleted',
  'GoalFailed',
];

interface SubtaskFields {
  id: string;
  description: string;
  /** dispatches so far; the current attempt's number */
  attempts: number;
}

/** A sub-task has a deadline only while an attempt is in flight. */
export type SubtaskState =
  | (SubtaskFields & { status: Exclude<SubtaskStatus, 'dispatched'> })
  | (SubtaskFields & { status: 'dispatched'; deadline: string });

/** A goal once accepted, whatever came of it since. */
export interface AcceptedGoal {
  status: Exclude<GoalStatus, 'none'>;
  goalId: string;
  timeoutSec: number;
  maxAttempts: number;
  /** in the order of the goal */
  subtasks: SubtaskState[];
}

export type GoalState = { status: 'none' } | AcceptedGoal;

export type GoalCommand =
  | {
      kind: 'accept';
      goalId: string;
      userId: string;
      goal: string;
      subtasks: string[];
      plannedBy: PlannedBy;
      timeoutSec: number;
      maxAttempts: number;
    }
  | { kind: 'dispatch' }
  | { kind: 'complete'; subtaskId: string; attempt: number; result: string; nodeId: string; source: 'model' | 'offline'; model: string }
  | { kind: 'fail'; subtaskId: string; attempt: number; error: string }
  | { kind: 'expire' };

export function goalStreamId(goalId: string): string {
  return `goal-${goalId}`;
}

/** The goal id of a `goal-<id>` stream, or null for another stream. */
export function goalIdOf(streamId: string): string | null {
  return streamId.startsWith('goal-') && streamId.length > 5 ? streamId.slice(5) : null;
}

export function subtaskIdAt(index: number): string {
  return `s${index + 1}`;
}

/** A goal that still takes dispatches, results and failures: accepted and neither completed nor failed. */
function inProgress(state: GoalState): state is AcceptedGoal & { status: 'accepted' | 'running' } {
  return state.status === 'accepted' || state.status === 'running';
}

function withSubtask(state: GoalState, id: string, change: (s: SubtaskState) => SubtaskState): GoalState {
  if (state.status === 'none') return state;
  return { ...state, subtasks: state.subtasks.map((s) => (s.id === id ? change(s) : s)) };
}

/** The sub-task out of flight, in a status without a deadline. */
function settled(s: SubtaskState, status: Exclude<SubtaskStatus, 'dispatched'>): SubtaskState {
  return { id: s.id, description: s.description, attempts: s.attempts, status };
}

function evolve(state: GoalState, event: GoalEvent): GoalState {
  switch (event.type) {
    case 'GoalAccepted':
      return {
        status: 'accepted',
        goalId: event.data.goal_id,
        timeoutSec: event.data.timeout_sec,
        maxAttempts: event.data.max_attempts,
        subtasks: event.data.subtasks.map((s) => ({ id: s.subtask_id, description: s.description, status: 'pending', attempts: 0 })),
      };
    case 'SubtaskDispatched': {
      const { attempt, deadline } = event.data;
      const dispatched = withSubtask(state, event.data.subtask_id, (s) => ({ id: s.id, description: s.description, attempts: attempt, status: 'dispatched', deadline }));
      return dispatched.status === 'none' ? dispatched : { ...dispatched, status: 'running' };
    }
    case 'SubtaskCompleted':
      return withSubtask(state, event.data.subtask_id, (s) => settled(s, 'completed'));
    case 'SubtaskFailed':
      return withSubtask(state, event.data.subtask_id, (s) => settled(s, event.data.will_retry ? 'pending' : 'failed'));
    case 'GoalCompleted':
      return state.status === 'none' ? state : { ...state, status: 'completed' };
    case 'GoalFailed':
      return state.status === 'none' ? state : { ...state, status: 'failed' };
    default:
      return assertNever(event);
  }
}

function accept(command: Extract<GoalCommand, { kind: 'accept' }>, state: GoalState, now: Date): GoalEvent[] {
  if (state.status !== 'none') return []; // a repeated accept (same goal id) records nothing
  const descriptions = command.subtasks.map((d) => d.trim());
  if (command.goal.trim() === '') throw new DomainError('invalid', 'goal must not be empty');
  if (descriptions.length < 1 || descriptions.length > MAX_SUBTASKS) {
    throw new DomainError('invalid', `a goal has 1 to ${MAX_SUBTASKS} subtasks (got ${descriptions.length})`);
  }
  if (descriptions.some((d) => d === '' || d.length > MAX_DESCRIPTION_CHARS)) {
    throw new DomainError('invalid', `each subtask is 1 to ${MAX_DESCRIPTION_CHARS} characters`);
  }
  if (!Number.isInteger(command.timeoutSec) || command.timeoutSec < 1 || command.timeoutSec > MAX_TIMEOUT_SEC) {
    throw new DomainError('invalid', `timeout_sec must be an integer from 1 to ${MAX_TIMEOUT_SEC}`);
  }
  if (!Number.isInteger(command.maxAttempts) || command.maxAttempts < 1 || command.maxAttempts > MAX_ATTEMPTS) {
    throw new DomainError('invalid', `max_attempts must be an integer from 1 to ${MAX_ATTEMPTS}`);
  }
  return [
    {
      type: 'GoalAccepted',
      data: {
        goal_id: command.goalId,
        user_id: command.userId,
        goal: command.goal.trim(),
        subtasks: descriptions.map((description, i) => ({ subtask_id: subtaskIdAt(i), description })),
        planned_by: command.plannedBy,
        accepted_at: now.toISOString(),
        timeout_sec: command.timeoutSec,
        max_attempts: command.maxAttempts,
      },
    },
  ];
}

function dispatch(state: GoalState, now: Date): GoalEvent[] {
  if (!inProgress(state)) return [];
  const deadline = new Date(now.getTime() + state.timeoutSec * 1000).toISOString();
  return state.subtasks
    .filter((s) => s.status === 'pending')
    .map((s) => ({
      type: 'SubtaskDispatched',
      data: { goal_id: state.goalId, subtask_id: s.id, description: s.description, attempt: s.attempts + 1, dispatched_at: now.toISOString(), deadline },
    }));
}

function complete(command: Extract<GoalCommand, { kind: 'complete' }>, state: GoalState, now: Date): GoalEvent[] {
  if (!inProgress(state)) return [];
  const subtask = state.subtasks.find((s) => s.id === command.subtaskId);
  // done already, or never dispatched (a result cannot precede its task)
  if (!subtask || subtask.status === 'completed' || subtask.status === 'failed' || subtask.attempts === 0) return [];
  if (!Number.isInteger(command.attempt) || command.attempt < 1 || command.attempt > subtask.attempts) return [];
  const at = now.toISOString();
  const events: GoalEvent[] = [
    {
      type: 'SubtaskCompleted',
      data: {
        subtask_id: subtask.id,
        attempt: command.attempt,
        result: command.result.slice(0, MAX_RESULT_CHARS),
        node_id: command.nodeId,
        source: command.source,
        model: command.model,
        completed_at: at,
      },
    },
  ];
  const allDone = state.subtasks.every((s) => s.id === subtask.id || s.status === 'completed');
  if (allDone) events.push({ type: 'GoalCompleted', data: { completed_at: at } });
  return events;
}

/** Fails the current attempt of each sub-task given; GoalFailed once when one has no attempt left. */
function failAttempts(state: AcceptedGoal, failed: { subtask: SubtaskState; reason: FailureReason; error: string | null }[], now: Date): GoalEvent[] {
  const at = now.toISOString();
  const events: GoalEvent[] = [];
  let exhausted: SubtaskState | null = null;
  for (const { subtask, reason, error } of failed) {
    const willRetry = subtask.attempts < state.maxAttempts;
    if (!willRetry) exhausted ??= subtask;
    events.push({ type: 'SubtaskFailed', data: { subtask_id: subtask.id, attempt: subtask.attempts, reason, error, will_retry: willRetry, failed_at: at } });
  }
  if (exhausted) {
    const why = `subtask ${exhausted.id} failed after ${exhausted.attempts} attempt${exhausted.attempts === 1 ? '' : 's'}`;
    events.push({ type: 'GoalFailed', data: { failed_at: at, reason: why } });
  }
  return events;
}

function fail(command: Extract<GoalCommand, { kind: 'fail' }>, state: GoalState, now: Date): GoalEvent[] {
  if (!inProgress(state)) return [];
  const subtask = state.subtasks.find((s) => s.id === command.subtaskId);
  // only the attempt in flight can fail: an older attempt's failure is stale
  if (!subtask || subtask.status !== 'dispatched' || command.attempt !== subtask.attempts) return [];
  return failAttempts(state, [{ subtask, reason: 'error', error: command.error.slice(0, 1000) }], now);
}

function expire(state: GoalState, now: Date): GoalEvent[] {
  if (!inProgress(state)) return [];
  const overdue = state.subtasks.filter((s) => s.status === 'dispatched' && Date.parse(s.deadline) <= now.getTime());
  return failAttempts(state, overdue.map((subtask) => ({ subtask, reason: 'timeout' as const, error: null })), now);
}

export const goalDecider: Decider<GoalState, GoalCommand, GoalEvent> = {
  initialState: { status: 'none' },
  evolve,
  decide(command, state, now) {
    switch (command.kind) {
      case 'accept':
        return accept(command, state, now);
      case 'dispatch':
        return dispatch(state, now);
      case 'complete':
        return complete(command, state, now);
      case 'fail':
        return fail(command, state, now);
      case 'expire':
        return expire(state, now);
      default:
        return assertNever(command);
    }
  },
};
