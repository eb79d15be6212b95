import { DomainError } from '../shared/domain-error';
import {
  DEFAULT_MAX_ATTEMPTS,
  RESPONSE_EXCERPT_MAX,
  type ScheduledPromptCommand,
  type ScheduledPromptEvent,
  scheduledPromptDecider as decider,
  scheduledPromptStreamId,
} from './scheduled-prompt';

const t = (iso: string) => new Date(iso);
const RUN_AT = '2026-04-10T12:00:00.000Z';
const LEASE_MS = 60_000;

const given = (...events: ScheduledPromptEvent[]) => events.reduce(decider.evolve, decider.initialState);
const when = (state: ReturnType<typeof given>, command: ScheduledPromptCommand, now: string) => decider.decide(command, state, t(now));

const scheduled: ScheduledPromptEvent = {
  type: 'PromptScheduled',
  data: {
    schedule_id: 's1',
    user_id: 'u1',
    prompt_id: 'p1',
    prompt: 'remind me',
    redactions: [],
    run_at: RUN_AT,
    scheduled_at: '2026-04-10T11:00:00.000Z',
  },
};
const claimed = (attempt: number, at: string, node = 'n1'): ScheduledPromptEvent => ({
  type: 'ScheduledPromptClaimed',
  data: { schedule_id: 's1', node_id: node, attempt, lease_until: new Date(Date.parse(at) + LEASE_MS).toISOString(), claimed_at: at },
});
const failed = (attempt: number, willRetry: boolean, retryAt: string | null): ScheduledPromptEvent => ({
  type: 'ScheduledPromptFailed',
  data: { schedule_id: 's1', attempt, error: 'boom', will_retry: willRetry, retry_at: retryAt, failed_at: '2026-04-10T12:00:05.000Z' },
});
const completed: ScheduledPromptEvent = {
  type: 'ScheduledPromptCompleted',
  data: { schedule_id: 's1', message_id: 's1', response_excerpt: 'done', completed_at: '2026-04-10T12:00:03.000Z' },
};
const claim: ScheduledPromptCommand = { kind: 'claim', nodeId: 'n2', leaseMs: LEASE_MS };
const fail = (attempt: number, retryable = true): ScheduledPromptCommand => ({ kind: 'fail', attempt, error: 'model down', retryable, retryDelayMs: 10_000 });

describe('scheduled prompt', () => {
  it('names its stream scheduledPrompt-<scheduleId>', () => {
    expect(scheduledPromptStreamId('abc')).toBe('scheduledPrompt-abc');
  });

  describe('schedule', () => {
    const command: ScheduledPromptCommand = { kind: 'schedule', scheduleId: 's1', userId: 'u1', promptId: 'p1', prompt: 'remind me', runAt: t(RUN_AT) };

    it('given nothing, when scheduling a future time, then PromptScheduled records the prompt and the times', () => {
      expect(when(given(), command, '2026-04-10T11:00:00.000Z')).toEqual([scheduled]);
    });

    it('given nothing, when scheduling a time that is now or past, then 400 schedule_time must be in the future', () => {
      expect(() => when(given(), command, RUN_AT)).toThrow(new DomainError('invalid', 'schedule_time must be in the future'));
      expect(() => when(given(), command, '2026-04-11T00:00:00.000Z')).toThrow(DomainError);
    });

    it('given nothing, when the time is not a date, then 400', () => {
      expect(() => when(given(), { ...command, runAt: new Date('nope') }, RUN_AT)).toThrow(
        new DomainError('invalid', 'schedule_time must be an ISO 8601 UTC timestamp'),
      );
    });

    it('given the schedule, when the same schedule repeats, then nothing is recorded; a different one is a conflict', () => {
      expect(when(given(scheduled), command, '2026-04-10T11:30:00.000Z')).toEqual([]);
      expect(() => when(given(scheduled), { ...command, prompt: 'other' }, '2026-04-10T11:30:00.000Z')).toThrow(
        new DomainError('conflict', 'schedule s1 already exists'),
      );
    });
  });

  describe('claim', () => {
    it('given a pending prompt, when claimed at run_at, then attempt 1 with a lease', () => {
      expect(when(given(scheduled), claim, RUN_AT)).toEqual([
        { type: 'ScheduledPromptClaimed', data: { schedule_id: 's1', node_id: 'n2', attempt: 1, lease_until: '2026-04-10T12:01:00.000Z', claimed_at: RUN_AT } },
      ]);
    });

    it('given a pending prompt, when claimed before run_at, then refused (not due)', () => {
      expect(() => when(given(scheduled), claim, '2026-04-10T11:59:59.999Z')).toThrow(
        new DomainError('conflict', `scheduled prompt not due before ${RUN_AT}`),
      );
    });

    it('given no schedule, when claimed, then 404', () => {
      expect(() => when(given(), claim, RUN_AT)).toThrow(new DomainError('not_found', 'scheduled prompt not found'));
    });

    it('given a claim with an unexpired lease, when claimed again, then refused: only one runner', () => {
      const state = given(scheduled, claimed(1, RUN_AT));
      expect(() => when(state, claim, '2026-04-10T12:00:59.999Z')).toThrow(
        new DomainError('conflict', 'scheduled prompt claimed by n1 until 2026-04-10T12:01:00.000Z'),
      );
    });

    it('given a claim whose lease expired without an outcome, when claimed, then the next attempt takes over', () => {
      expect(when(given(scheduled, claimed(1, RUN_AT)), claim, '2026-04-10T12:01:00.000Z')).toEqual([
        { type: 'ScheduledPromptClaimed', data: expect.objectContaining({ node_id: 'n2', attempt: 2, lease_until: '2026-04-10T12:02:00.000Z' }) },
      ]);
    });

    it('given the last attempt expired, when claimed, then it is given up (Failed, no retry) instead of run again', () => {
      const state = given(scheduled, claimed(1, RUN_AT), claimed(2, '2026-04-10T12:01:00.000Z'), claimed(3, '2026-04-10T12:02:00.000Z'));
      expect(DEFAULT_MAX_ATTEMPTS).toBe(3);
      expect(when(state, claim, '2026-04-10T12:03:00.000Z')).toEqual([
        {
          type: 'ScheduledPromptFailed',
          data: expect.objectContaining({ attempt: 3, will_retry: false, retry_at: null, failed_at: '2026-04-10T12:03:00.000Z' }),
        },
      ]);
    });

    it('given a completed prompt, when claimed, then refused', () => {
      expect(() => when(given(scheduled, claimed(1, RUN_AT), completed), claim, '2026-04-10T13:00:00.000Z')).toThrow(
        new DomainError('conflict', 'scheduled prompt already completed'),
      );
    });

    it('given a failed prompt, when claimed, then refused', () => {
      expect(() => when(given(scheduled, claimed(1, RUN_AT), failed(1, false, null)), claim, '2026-04-10T13:00:00.000Z')).toThrow(
        new DomainError('conflict', 'scheduled prompt failed'),
      );
    });

    it('given a failure with a retry, when claimed before retry_at, then refused; at retry_at, attempt 2', () => {
      const state = given(scheduled, claimed(1, RUN_AT), failed(1, true, '2026-04-10T12:00:15.000Z'));
      expect(state.status).toBe('pending');
      expect(() => when(state, claim, '2026-04-10T12:00:14.000Z')).toThrow(DomainError);
      expect(when(state, claim, '2026-04-10T12:00:15.000Z')).toEqual([
        { type: 'ScheduledPromptClaimed', data: expect.objectContaining({ attempt: 2 }) },
      ]);
    });
  });

  describe('complete', () => {
    it('given a running attempt, when completed, then the message id and a 200-character excerpt are recorded', () => {
      const response = 'x'.repeat(500);
      const [event] = when(given(scheduled, claimed(1, RUN_AT)), { kind: 'complete', attempt: 1, messageId: 's1', response }, '2026-04-10T12:00:02.000Z');
      expect(event).toEqual({
        type: 'ScheduledPromptCompleted',
        data: { schedule_id: 's1', message_id: 's1', response_excerpt: 'x'.repeat(RESPONSE_EXCERPT_MAX), completed_at: '2026-04-10T12:00:02.000Z' },
      });
    });

    it('given a completed prompt, when completed again (a second run of the same message), then nothing is recorded', () => {
      expect(when(given(scheduled, claimed(1, RUN_AT), completed), { kind: 'complete', attempt: 1, messageId: 's1', response: 'r' }, RUN_AT)).toEqual([]);
    });

    it('given an older attempt that finishes after a newer claim, when completed, then its result is recorded once', () => {
      const state = given(scheduled, claimed(1, RUN_AT), claimed(2, '2026-04-10T12:01:00.000Z'));
      expect(when(state, { kind: 'complete', attempt: 1, messageId: 's1', response: 'r' }, '2026-04-10T12:01:30.000Z')).toHaveLength(1);
    });

    it('given an unclaimed prompt, when completed, then refused', () => {
      expect(() => when(given(scheduled), { kind: 'complete', attempt: 1, messageId: 's1', response: 'r' }, RUN_AT)).toThrow(
        new DomainError('conflict', 'scheduled prompt was not claimed for this attempt'),
      );
    });
  });

  describe('fail', () => {
    it('given attempt 1 running, when it fails retryably, then Failed with a retry after the delay × attempt', () => {
      expect(when(given(scheduled, claimed(1, RUN_AT)), fail(1), '2026-04-10T12:00:05.000Z')).toEqual([
        {
          type: 'ScheduledPromptFailed',
          data: { schedule_id: 's1', attempt: 1, error: 'model down', will_retry: true, retry_at: '2026-04-10T12:00:15.000Z', failed_at: '2026-04-10T12:00:05.000Z' },
        },
      ]);
      const state = given(scheduled, claimed(1, RUN_AT), claimed(2, '2026-04-10T12:01:00.000Z'));
      expect(when(state, fail(2), '2026-04-10T12:01:05.000Z')[0].data).toMatchObject({ will_retry: true, retry_at: '2026-04-10T12:01:25.000Z' });
    });

    it('given the last attempt, when it fails, then no retry and the prompt is failed', () => {
      const state = given(scheduled, claimed(1, RUN_AT), claimed(2, '2026-04-10T12:01:00.000Z'), claimed(3, '2026-04-10T12:02:00.000Z'));
      const events = when(state, fail(3), '2026-04-10T12:02:05.000Z');
      expect(events[0].data).toMatchObject({ attempt: 3, will_retry: false, retry_at: null });
      expect(given(scheduled, ...events).status).toBe('failed');
    });

    it('given a running attempt, when it fails for good (refused input), then no retry', () => {
      expect(when(given(scheduled, claimed(1, RUN_AT)), fail(1, false), '2026-04-10T12:00:05.000Z')[0].data).toMatchObject({ will_retry: false });
    });

    it('given a newer attempt or a completed prompt, when a stale attempt fails, then nothing is recorded', () => {
      expect(when(given(scheduled, claimed(1, RUN_AT), claimed(2, '2026-04-10T12:01:00.000Z')), fail(1), '2026-04-10T12:01:10.000Z')).toEqual([]);
      expect(when(given(scheduled, claimed(1, RUN_AT), completed), fail(1), '2026-04-10T12:01:10.000Z')).toEqual([]);
    });
  });
});
