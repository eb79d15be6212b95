import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { SCHEDULED_PROMPTS, type ScheduledPromptDoc, scheduledPromptsProjection as projection } from './scheduled-prompts.projection';

const scheduled = (id: string, runAt = '2026-04-10T12:00:00.000Z') =>
  recorded('PromptScheduled', {
    schedule_id: id,
    user_id: 'u1',
    prompt_id: 'p1',
    prompt: 'secret-free prompt',
    redactions: [],
    run_at: runAt,
    scheduled_at: '2026-04-10T11:00:00.000Z',
  });
const claimed = (id: string, attempt: number, leaseUntil: string) =>
  recorded('ScheduledPromptClaimed', { schedule_id: id, node_id: 'n1', attempt, lease_until: leaseUntil, claimed_at: '2026-04-10T12:00:00.000Z' });
const completed = (id: string) =>
  recorded('ScheduledPromptCompleted', { schedule_id: id, message_id: id, response_excerpt: 'the answer', completed_at: '2026-04-10T12:00:02.000Z' });
const failed = (id: string, attempt: number, willRetry: boolean, retryAt: string | null) =>
  recorded('ScheduledPromptFailed', { schedule_id: id, attempt, error: 'boom', will_retry: willRetry, retry_at: retryAt, failed_at: '2026-04-10T12:00:05.000Z' });

const doc = (store: EmbeddedReadStore, id: string) => store.collection<ScheduledPromptDoc>(SCHEDULED_PROMPTS).findOne({ _id: id });

describe('scheduledPrompts projection', () => {
  it('given its definition, then it declares the {status, run_at} index the scheduler polls on', () => {
    expect(projection.indexes).toContainEqual({ collection: SCHEDULED_PROMPTS, spec: { keys: { status: 1, run_at: 1 } } });
  });

  it('given a schedule, then a pending document without the prompt text', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, scheduled('s1'));
    const d = await doc(store, 's1');
    expect(d).toMatchObject({
      schedule_id: 's1',
      user_id: 'u1',
      prompt_id: 'p1',
      status: 'pending',
      run_at: '2026-04-10T12:00:00.000Z',
      due_at: '2026-04-10T12:00:00.000Z',
      lease_until: null,
      attempts: 0,
    });
    expect(JSON.stringify(d)).not.toContain('secret-free prompt');
  });

  it('given a schedule and a claim, then running with the lease', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, scheduled('s2'), claimed('s2', 1, '2026-04-10T12:01:00.000Z'));
    expect(await doc(store, 's2')).toMatchObject({ status: 'running', attempts: 1, node_id: 'n1', lease_until: '2026-04-10T12:01:00.000Z' });
  });

  it('given a claim then a completion, then completed with the excerpt and no lease', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, scheduled('s2'), claimed('s2', 1, '2026-04-10T12:01:00.000Z'), completed('s2'));
    expect(await doc(store, 's2')).toMatchObject({ status: 'completed', lease_until: null, message_id: 's2', response_excerpt: 'the answer' });
  });

  it('given a failure with a retry, then pending again, due at retry_at', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, scheduled('s3'), claimed('s3', 1, '2026-04-10T12:01:00.000Z'), failed('s3', 1, true, '2026-04-10T12:00:15.000Z'));
    expect(await doc(store, 's3')).toMatchObject({
      status: 'pending',
      run_at: '2026-04-10T12:00:00.000Z',
      due_at: '2026-04-10T12:00:15.000Z',
      lease_until: null,
      attempts: 1,
      last_error: 'boom',
    });
  });

  it('given a retried failure then a final one, then failed, still due at the last retry_at', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      scheduled('s3'),
      claimed('s3', 1, '2026-04-10T12:01:00.000Z'),
      failed('s3', 1, true, '2026-04-10T12:00:15.000Z'),
      claimed('s3', 2, '2026-04-10T12:02:00.000Z'),
      failed('s3', 2, false, null),
    );
    expect(await doc(store, 's3')).toMatchObject({ status: 'failed', attempts: 2, due_at: '2026-04-10T12:00:15.000Z' });
  });

  it('given a completed prompt, when its events are redelivered (or replayed out of a batch), then the document does not go back', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const s = scheduled('s4');
    const c = claimed('s4', 1, '2026-04-10T12:01:00.000Z');
    const done = completed('s4');
    await applyAll(projection, store, s, c, done);
    await applyAll(projection, store, s, c);
    await applyAll(projection, store, c, done);
    expect(await doc(store, 's4')).toMatchObject({ status: 'completed', attempts: 1 });
    expect(await store.collection(SCHEDULED_PROMPTS).countDocuments({})).toBe(1);
  });

  it('given due, later, expired and held prompts, when the scheduler polls, then it finds the due pending one and the expired lease', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      scheduled('due', '2026-04-10T12:00:00.000Z'),
      scheduled('later', '2026-04-10T13:00:00.000Z'),
      scheduled('expired', '2026-04-10T11:30:00.000Z'),
      claimed('expired', 1, '2026-04-10T11:59:00.000Z'),
      scheduled('held', '2026-04-10T11:30:00.000Z'),
      claimed('held', 1, '2026-04-10T12:30:00.000Z'),
    );
    const now = '2026-04-10T12:00:00.000Z';
    const collection = store.collection<ScheduledPromptDoc>(SCHEDULED_PROMPTS);
    const pending = await collection.find({ status: 'pending', run_at: { $lte: now }, due_at: { $lte: now } }, { sort: { run_at: 1 } });
    const expired = await collection.find({ status: 'running', lease_until: { $lte: now } }, { sort: { run_at: 1 } });
    expect(pending.map((d) => d._id)).toEqual(['due']);
    expect(expired.map((d) => d._id)).toEqual(['expired']);
  });
});
