import { deciderKit } from '../../../test/support/decider-kit';
import {
  DEFAULT_MAX_ATTEMPTS,
  RESPONSE_EXCERPT_MAX,
  type ScheduledPromptCommand,
  type ScheduledPromptEvent,
  scheduledPromptDecider,
  scheduledPromptStreamId,
} from './scheduled-prompt';

const t = (iso: string) => new Date(iso);
const RUN_AT = '2026-04-10T12:00:00.000Z';
const LEASE_MS = 60_000;
const { given } = deciderKit(scheduledPromptDecider, t(RUN_AT));

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
/** three attempts claimed, one a minute from run_at; none finished */
const threeClaims = [scheduled, claimed(1, RUN_AT), claimed(2, '2026-04-10T12:01:00.000Z'), claimed(3, '2026-04-10T12:02:00.000Z')];
const claim: ScheduledPromptCommand = { kind: 'claim', nodeId: 'n2', leaseMs: LEASE_MS };
const complete = (attempt: number, response = 'r'): ScheduledPromptCommand => ({ kind: 'complete', attempt, messageId: 's1', response });
const fail = (attempt: number, retryable = true): ScheduledPromptCommand => ({ kind: 'fail', attempt, error: 'model down', retryable, retryDelayMs: 10_000 });

describe('scheduled prompt', () => {
  it('names its stream scheduledPrompt-<scheduleId>', () => {
    expect(scheduledPromptStreamId('abc')).toBe('scheduledPrompt-abc');
  });

  describe('schedule', () => {
    const command: ScheduledPromptCommand = { kind: 'schedule', scheduleId: 's1', userId: 'u1', promptId: 'p1', prompt: 'remind me', runAt: t(RUN_AT) };

    it('given nothing, when scheduling a future time, then PromptScheduled records the prompt and the times', () =>
      given().when(command, t('2026-04-10T11:00:00.000Z')).then(scheduled));

    it('given nothing, when scheduling the time that is now, then 400 schedule_time must be in the future', () =>
      given().when(command, t(RUN_AT)).thenRefused('invalid', 'schedule_time must be in the future'));

    it('given nothing, when scheduling a past time, then 400', () => given().when(command, t('2026-04-11T00:00:00.000Z')).thenRefused('invalid'));

    it('given nothing, when the time is not a date, then 400', () =>
      given()
        .when({ ...command, runAt: new Date('nope') })
        .thenRefused('invalid', 'schedule_time must be an ISO 8601 UTC timestamp'));

    it('given the schedule, when the same schedule repeats, then nothing is recorded', () =>
      given(scheduled).when(command, t('2026-04-10T11:30:00.000Z')).thenNothing());

    it('given the schedule, when a different one comes with its id, then a conflict', () =>
      given(scheduled)
        .when({ ...command, prompt: 'other' }, t('2026-04-10T11:30:00.000Z'))
        .thenRefused('conflict', 'schedule s1 already exists'));
  });

  describe('claim', () => {
    it('given a pending prompt, when claimed at run_at, then attempt 1 with a lease', () =>
      given(scheduled)
        .when(claim)
        .then({ type: 'ScheduledPromptClaimed', data: { schedule_id: 's1', node_id: 'n2', attempt: 1, lease_until: '2026-04-10T12:01:00.000Z', claimed_at: RUN_AT } }));

    it('given a pending prompt, when claimed before run_at, then refused (not due)', () =>
      given(scheduled).when(claim, t('2026-04-10T11:59:59.999Z')).thenRefused('conflict', `scheduled prompt not due before ${RUN_AT}`));

    it('given no schedule, when claimed, then 404', () => given().when(claim).thenRefused('not_found', 'scheduled prompt not found'));

    it('given a claim, then the prompt runs on that node until the lease ends', () =>
      expect(given(scheduled, claimed(1, RUN_AT)).state()).toMatchObject({ status: 'running', attempts: 1, nodeId: 'n1', leaseUntil: '2026-04-10T12:01:00.000Z' }));

    it('given a claim with an unexpired lease, when claimed again, then refused: only one runner', () =>
      given(scheduled, claimed(1, RUN_AT))
        .when(claim, t('2026-04-10T12:00:59.999Z'))
        .thenRefused('conflict', 'scheduled prompt claimed by n1 until 2026-04-10T12:01:00.000Z'));

    it('given a claim whose lease expired without an outcome, when claimed, then the next attempt takes over', () =>
      given(scheduled, claimed(1, RUN_AT))
        .when(claim, t('2026-04-10T12:01:00.000Z'))
        .then({ type: 'ScheduledPromptClaimed', data: expect.objectContaining({ node_id: 'n2', attempt: 2, lease_until: '2026-04-10T12:02:00.000Z' }) }));

    it('given the last attempt expired, when claimed, then it is given up (Failed, no retry) instead of run again', () => {
      expect(DEFAULT_MAX_ATTEMPTS).toBe(3);
      given(...threeClaims)
        .when(claim, t('2026-04-10T12:03:00.000Z'))
        .then({
          type: 'ScheduledPromptFailed',
          data: expect.objectContaining({ attempt: 3, will_retry: false, retry_at: null, failed_at: '2026-04-10T12:03:00.000Z' }),
        });
    });

    it('given a completed prompt, when claimed, then refused', () =>
      given(scheduled, claimed(1, RUN_AT), completed)
        .when(claim, t('2026-04-10T13:00:00.000Z'))
        .thenRefused('conflict', 'scheduled prompt already completed'));

    it('given a failed prompt, when claimed, then refused', () =>
      given(scheduled, claimed(1, RUN_AT), failed(1, false, null))
        .when(claim, t('2026-04-10T13:00:00.000Z'))
        .thenRefused('conflict', 'scheduled prompt failed'));

    describe('given a failure with a retry at 12:00:15', () => {
      const retrying = [scheduled, claimed(1, RUN_AT), failed(1, true, '2026-04-10T12:00:15.000Z')];

      it('then the prompt is pending again, due at retry_at, with no lease', () =>
        expect(given(...retrying).state()).toEqual({
          status: 'pending',
          scheduleId: 's1',
          userId: 'u1',
          promptId: 'p1',
          prompt: 'remind me',
          runAt: RUN_AT,
          dueAt: '2026-04-10T12:00:15.000Z',
          attempts: 1,
          lastError: 'boom',
        }));

      it('when claimed before retry_at, then refused', () => given(...retrying).when(claim, t('2026-04-10T12:00:14.000Z')).thenRefused('conflict'));

      it('when claimed at retry_at, then attempt 2', () =>
        given(...retrying)
          .when(claim, t('2026-04-10T12:00:15.000Z'))
          .then({ type: 'ScheduledPromptClaimed', data: expect.objectContaining({ attempt: 2 }) }));
    });
  });

  describe('complete', () => {
    it('given a running attempt, when completed, then the message id and a 200-character excerpt are recorded', () =>
      given(scheduled, claimed(1, RUN_AT))
        .when(complete(1, 'x'.repeat(500)), t('2026-04-10T12:00:02.000Z'))
        .then({
          type: 'ScheduledPromptCompleted',
          data: { schedule_id: 's1', message_id: 's1', response_excerpt: 'x'.repeat(RESPONSE_EXCERPT_MAX), completed_at: '2026-04-10T12:00:02.000Z' },
        }));

    it('given a completed prompt, when completed again (a second run of the same message), then nothing is recorded', () =>
      given(scheduled, claimed(1, RUN_AT), completed).when(complete(1)).thenNothing());

    it('given an older attempt that finishes after a newer claim, when completed, then its result is recorded once', () =>
      expect(given(scheduled, claimed(1, RUN_AT), claimed(2, '2026-04-10T12:01:00.000Z')).when(complete(1), t('2026-04-10T12:01:30.000Z')).events()).toHaveLength(1));

    it('given an unclaimed prompt, when completed, then refused', () =>
      given(scheduled).when(complete(1)).thenRefused('conflict', 'scheduled prompt was not claimed for this attempt'));
  });

  describe('fail', () => {
    it('given attempt 1 running, when it fails retryably, then Failed with a retry after the delay', () =>
      given(scheduled, claimed(1, RUN_AT))
        .when(fail(1), t('2026-04-10T12:00:05.000Z'))
        .then({
          type: 'ScheduledPromptFailed',
          data: { schedule_id: 's1', attempt: 1, error: 'model down', will_retry: true, retry_at: '2026-04-10T12:00:15.000Z', failed_at: '2026-04-10T12:00:05.000Z' },
        }));

    it('given attempt 2 running, when it fails retryably, then the retry waits the delay × 2', () =>
      given(scheduled, claimed(1, RUN_AT), claimed(2, '2026-04-10T12:01:00.000Z'))
        .when(fail(2), t('2026-04-10T12:01:05.000Z'))
        .then({ type: 'ScheduledPromptFailed', data: expect.objectContaining({ will_retry: true, retry_at: '2026-04-10T12:01:25.000Z' }) }));

    it('given the last attempt, when it fails, then no retry and the prompt is failed', () => {
      const last = given(...threeClaims).when(fail(3), t('2026-04-10T12:02:05.000Z'));
      last.then({ type: 'ScheduledPromptFailed', data: expect.objectContaining({ attempt: 3, will_retry: false, retry_at: null }) });
      expect(last.state().status).toBe('failed');
    });

    it('given a running attempt, when it fails for good (refused input), then no retry', () =>
      given(scheduled, claimed(1, RUN_AT))
        .when(fail(1, false), t('2026-04-10T12:00:05.000Z'))
        .then({ type: 'ScheduledPromptFailed', data: expect.objectContaining({ will_retry: false }) }));

    it('given a newer attempt, when a stale attempt fails, then nothing is recorded', () =>
      given(scheduled, claimed(1, RUN_AT), claimed(2, '2026-04-10T12:01:00.000Z')).when(fail(1), t('2026-04-10T12:01:10.000Z')).thenNothing());

    it('given a completed prompt, when a stale attempt fails, then nothing is recorded', () =>
      given(scheduled, claimed(1, RUN_AT), completed).when(fail(1), t('2026-04-10T12:01:10.000Z')).thenNothing());
  });
});
