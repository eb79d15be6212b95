/**
 * A scheduled prompt of `/time_agent` (issue 7 item 5), stream
 * `scheduledPrompt-<scheduleId>`. The stream is the one consistency boundary
 * of "who runs this prompt": a scheduler instance claims it by appending
 * `ScheduledPromptClaimed` at the revision it read, so of two instances that
 * race for the same due prompt one appends and the other gets a revision
 * conflict, re-reads, and is refused here (an unexpired lease). The run itself
 * goes through the chat pipeline with `message_id = schedule_id`, which the
 * pipeline records once however often it is run; a claim whose lease expired
 * (the instance crashed between claim and completion) may be claimed again.
 *
 * Lifecycle: pending → (claim) running → completed
 *                                     → (fail, attempts left) pending, due at retry_at
 *                                     → (fail, no attempt left) failed
 *            running with an expired lease → (claim) running, next attempt
 *                                          → (claim, no attempt left) failed
 *
 * Pure: the time comes in as `now`, lease and retry settings in the commands.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider, DomainEvent } from '../shared/decider';

/** Claims (runs) a scheduled prompt gets at most, unless the command says otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 3;
/** `response_excerpt` of ScheduledPromptCompleted: the first characters of the response. */
export const RESPONSE_EXCERPT_MAX = 200;
/** `error` of ScheduledPromptFailed is cut to this length. */
export const FAILURE_ERROR_MAX = 500;

export type PromptScheduled = DomainEvent<
  'PromptScheduled',
  {
    schedule_id: string;
    user_id: string;
    prompt_id: string;
    /** already redacted by the caller: the only form stored */
    prompt: string;
    /** kinds and counts of the secrets the caller redacted (never the secrets) */
    redactions: { kind: string; count: number }[];
    run_at: string;
    scheduled_at: string;
  }
>;

export type ScheduledPromptClaimed = DomainEvent<
  'ScheduledPromptClaimed',
  { schedule_id: string; node_id: string; attempt: number; lease_until: string; claimed_at: string }
>;

export type ScheduledPromptCompleted = DomainEvent<
  'ScheduledPromptCompleted',
  { schedule_id: string; message_id: string; response_excerpt: string; completed_at: string }
>;

export type ScheduledPromptFailed = DomainEvent<
  'ScheduledPromptFailed',
  {
    schedule_id: string;
    attempt: number;
    error: string;
    will_retry: boolean;
    /** when the next attempt is due (will_retry), else null */
    retry_at: string | null;
    failed_at: string;
  }
>;

export type ScheduledPromptEvent = PromptScheduled | ScheduledPromptClaimed | ScheduledPromptCompleted | ScheduledPromptFailed;

export const SCHEDULED_PROMPT_EVENT_TYPES: readonly ScheduledPromptEvent['type'][] = [
  'PromptScheduled',
  'ScheduledPromptClaimed',
  'ScheduledPromptCompleted',
  'ScheduledPromptFailed',
];

export type ScheduledPromptStatus = 'none' | 'pending' | 'running' | 'completed' | 'failed';

/** What a prompt has from its scheduling on, whatever its status. */
export interface ScheduledPromptFields {
  scheduleId: string;
  userId: string;
  promptId: string;
  prompt: string;
  runAt: string;
  /** when the prompt may be claimed next: run_at, or retry_at after a failure */
  dueAt: string;
  /** number of claims so far; the current attempt's number while running */
  attempts: number;
  /** the error of the last failed attempt; null while none failed */
  lastError: string | null;
}

/** Running: claimed by a node until its lease ends. Completed: answered as `messageId` in the conversation. */
export type ScheduledPromptState =
  | { status: 'none' }
  | (ScheduledPromptFields & { status: 'pending' | 'failed' })
  | (ScheduledPromptFields & { status: 'running'; nodeId: string; leaseUntil: string })
  | (ScheduledPromptFields & { status: 'completed'; messageId: string });

type Scheduled = Exclude<ScheduledPromptState, { status: 'none' }>;

export type ScheduledPromptCommand =
  | { kind: 'schedule'; scheduleId: string; userId: string; promptId: string; prompt: string; redactions?: { kind: string; count: number }[]; runAt: Date }
  | { kind: 'claim'; nodeId: string; leaseMs: number; maxAttempts?: number }
  | { kind: 'complete'; attempt: number; messageId: string; response: string }
  | { kind: 'fail'; attempt: number; error: string; retryable: boolean; retryDelayMs: number; maxAttempts?: number };

export function scheduledPromptStreamId(scheduleId: string): string {
  return `scheduledPrompt-${scheduleId}`;
}

/** The fields every scheduled status shares, without those of the status it leaves. */
function fieldsOf(state: Scheduled): ScheduledPromptFields {
  const { scheduleId, userId, promptId, prompt, runAt, dueAt, attempts, lastError } = state;
  return { scheduleId, userId, promptId, prompt, runAt, dueAt, attempts, lastError };
}

/** A due prompt, not claimed by anyone: the next attempt, or giving up when none is left. */
function claimDue(command: Extract<ScheduledPromptCommand, { kind: 'claim' }>, state: Scheduled, now: Date): ScheduledPromptEvent[] {
  const at = now.toISOString();
  const maxAttempts = command.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (state.attempts >= maxAttempts) {
    // the last attempt's lease ran out without an outcome: give up instead of running again
    return [
      {
        type: 'ScheduledPromptFailed',
        data: {
          schedule_id: state.scheduleId,
          attempt: state.attempts,
          error: `no outcome within the lease of attempt ${state.attempts}; no attempts left`,
          will_retry: false,
          retry_at: null,
          failed_at: at,
        },
      },
    ];
  }
  return [
    {
      type: 'ScheduledPromptClaimed',
      data: {
        schedule_id: state.scheduleId,
        node_id: command.nodeId,
        attempt: state.attempts + 1,
        lease_until: new Date(now.getTime() + command.leaseMs).toISOString(),
        claimed_at: at,
      },
    },
  ];
}

export const scheduledPromptDecider: Decider<ScheduledPromptState, ScheduledPromptCommand, ScheduledPromptEvent> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    if (event.type === 'PromptScheduled') {
      const { schedule_id, user_id, prompt_id, prompt, run_at } = event.data;
      return {
        status: 'pending',
        scheduleId: schedule_id,
        userId: user_id,
        promptId: prompt_id,
        prompt,
        runAt: run_at,
        dueAt: run_at,
        attempts: 0,
        lastError: null,
      };
    }
    if (state.status === 'none') return state;
    const fields = fieldsOf(state);
    switch (event.type) {
      case 'ScheduledPromptClaimed':
        return { ...fields, status: 'running', attempts: event.data.attempt, nodeId: event.data.node_id, leaseUntil: event.data.lease_until };
      case 'ScheduledPromptCompleted':
        return { ...fields, status: 'completed', messageId: event.data.message_id };
      case 'ScheduledPromptFailed': {
        const failed = { ...fields, dueAt: event.data.retry_at ?? fields.dueAt, lastError: event.data.error };
        return event.data.will_retry ? { ...failed, status: 'pending' } : { ...failed, status: 'failed' };
      }
      default:
        return assertNever(event);
    }
  },

  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'schedule': {
        if (state.status !== 'none') {
          const same = state.userId === command.userId && state.promptId === command.promptId && state.prompt === command.prompt && Date.parse(state.runAt) === command.runAt.getTime();
          if (same) return [];
          throw new DomainError('conflict', `schedule ${command.scheduleId} already exists`);
        }
        if (Number.isNaN(command.runAt.getTime())) throw new DomainError('invalid', 'schedule_time must be an ISO 8601 UTC timestamp');
        if (command.runAt.getTime() <= now.getTime()) throw new DomainError('invalid', 'schedule_time must be in the future');
        return [
          {
            type: 'PromptScheduled',
            data: {
              schedule_id: command.scheduleId,
              user_id: command.userId,
              prompt_id: command.promptId,
              prompt: command.prompt,
              redactions: command.redactions ?? [],
              run_at: command.runAt.toISOString(),
              scheduled_at: at,
            },
          },
        ];
      }

      case 'claim':
        switch (state.status) {
          case 'none':
            throw new DomainError('not_found', 'scheduled prompt not found');
          case 'completed':
            throw new DomainError('conflict', 'scheduled prompt already completed');
          case 'failed':
            throw new DomainError('conflict', 'scheduled prompt failed');
          case 'running':
            if (now.getTime() < Date.parse(state.leaseUntil)) {
              throw new DomainError('conflict', `scheduled prompt claimed by ${state.nodeId} until ${state.leaseUntil}`);
            }
            return claimDue(command, state, now);
          case 'pending':
            if (now.getTime() < Date.parse(state.dueAt)) throw new DomainError('conflict', `scheduled prompt not due before ${state.dueAt}`);
            return claimDue(command, state, now);
          default:
            return assertNever(state);
        }

      case 'complete': {
        if (state.status === 'none') throw new DomainError('not_found', 'scheduled prompt not found');
        if (state.status === 'completed') return [];
        if (state.attempts === 0 || command.attempt < 1 || command.attempt > state.attempts) {
          throw new DomainError('conflict', 'scheduled prompt was not claimed for this attempt');
        }
        // A run's result is in the conversation whenever it arrives (even after a
        // later attempt took over or the prompt was given up): record it, once.
        return [
          {
            type: 'ScheduledPromptCompleted',
            data: {
              schedule_id: state.scheduleId,
              message_id: command.messageId,
              response_excerpt: Array.from(command.response).slice(0, RESPONSE_EXCERPT_MAX).join(''),
              completed_at: at,
            },
          },
        ];
      }

      case 'fail': {
        if (state.status === 'none') throw new DomainError('not_found', 'scheduled prompt not found');
        // completed, already failed, or a newer attempt owns the prompt: this failure changes nothing
        if (state.status !== 'running' || command.attempt !== state.attempts) return [];
        const maxAttempts = command.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
        const willRetry = command.retryable && command.attempt < maxAttempts;
        return [
          {
            type: 'ScheduledPromptFailed',
            data: {
              schedule_id: state.scheduleId,
              attempt: command.attempt,
              error: Array.from(command.error).slice(0, FAILURE_ERROR_MAX).join('') || 'unknown error',
              will_retry: willRetry,
              retry_at: willRetry ? new Date(now.getTime() + command.retryDelayMs * command.attempt).toISOString() : null,
              failed_at: at,
            },
          },
        ];
      }

      default:
        return assertNever(command);
    }
  },
};
