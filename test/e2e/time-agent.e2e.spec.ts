/**
 * `/time_agent` over HTTP (issue 7 item 5): validation (400), the guardrail
 * (403) and secret redaction before anything is stored, the 202 receipt and
 * the status route, a due prompt running once through the chat pipeline with
 * its answer in the conversation (message id = schedule id), and a schedule
 * that survives a restart and then runs once. "Runs once" is checked after
 * the scheduler's own polls ran to their end, never after a sleep.
 */
import { conversationStreamId } from '../../src/aggregates/chat/chat.events';
import { scheduledPromptStreamId } from '../../src/aggregates/chat/scheduled-prompt';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import { READ_STORE, type ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { PromptScheduler } from '../../src/sagas/scheduled-prompts.scheduler';
import { SCHEDULED_PROMPTS } from '../../src/projections/chat/scheduled-prompts.projection';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

async function conversation(t: TestApp, userId: string, promptId: string): Promise<RecordedEvent[]> {
  return t.app.get<EventStore>(EVENT_STORE).readStream(conversationStreamId(userId, promptId));
}

const withMessage = (events: RecordedEvent[], type: string, messageId: string) =>
  events.filter((e) => e.type === type && (e.data as { message_id?: string }).message_id === messageId);

/** The status view once the schedule completed or failed. */
function untilSettled(t: TestApp, scheduleId: string): Promise<any> {
  return eventually(
    `schedule ${scheduleId} to settle`,
    async () => (await t.request('GET', `/time_agent/${scheduleId}`)).body?.data,
    (view) => view?.status === 'completed' || view?.status === 'failed',
    { timeoutMs: 15_000 },
  );
}

/** Two more polls of the scheduler, each awaited to its end (the runs it started included): what they would do is done. */
async function drainScheduler(t: TestApp, scheduleId: string): Promise<void> {
  const scheduler = t.app.get(PromptScheduler);
  for (let i = 0; i < 2; i++) expect((await scheduler.poll()).has(scheduleId)).toBe(false);
}

describe('/time_agent over HTTP', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const schedule = (body: unknown) => t.request('POST', '/time_agent', { body });
  const valid = () => ({ user_id: uniqueName('ta'), prompt_id: 'reminder_1', prompt: 'what is 2 + 3?', schedule_time: inMs(60_000) });

  describe('refuses bad input with 400 and stores nothing', () => {
    it.each([
      ['missing fields', {}, 'missing required fields: user_id, prompt_id, prompt, schedule_time'],
      ['a missing schedule_time', { user_id: 'u1', prompt_id: 'p1', prompt: 'x' }, 'missing required field: schedule_time'],
      ['a wrong type', { user_id: 'u1', prompt_id: 'p1', prompt: 42, schedule_time: '2099-01-01T00:00:00Z' }, 'prompt is required (a non-empty string)'],
      ['a schedule_time that is a number', { user_id: 'u1', prompt_id: 'p1', prompt: 'x', schedule_time: 4102444800 }, 'schedule_time must be a string (an ISO 8601 UTC timestamp)'],
      ['a malformed user_id', { user_id: 'a b', prompt_id: 'p1', prompt: 'x', schedule_time: '2099-01-01T00:00:00Z' }, 'user_id must be 1-128 letters, digits or _ . : @ -'],
      ['a malformed prompt_id', { user_id: 'u1', prompt_id: 'p/1', prompt: 'x', schedule_time: '2099-01-01T00:00:00Z' }, 'prompt_id may hold only letters, digits, _ and - (1-128 characters)'],
      ['a malformed schedule_time', { user_id: 'u1', prompt_id: 'p1', prompt: 'x', schedule_time: 'tomorrow at 9' }, 'schedule_time must be an ISO 8601 UTC timestamp, e.g. 2030-01-31T09:30:00Z'],
      ['an impossible date', { user_id: 'u1', prompt_id: 'p1', prompt: 'x', schedule_time: '2099-02-30T00:00:00Z' }, 'schedule_time must be an ISO 8601 UTC timestamp, e.g. 2030-01-31T09:30:00Z'],
      ['a non-UTC offset', { user_id: 'u1', prompt_id: 'p1', prompt: 'x', schedule_time: '2099-01-01T00:00:00+02:00' }, 'schedule_time must be an ISO 8601 UTC timestamp, e.g. 2030-01-31T09:30:00Z'],
      ['a past time', { user_id: 'u1', prompt_id: 'p1', prompt: 'x', schedule_time: '2020-01-01T00:00:00Z' }, 'schedule_time must be in the future'],
    ])('%s', async (_, body, error) => {
      const res = await schedule(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error });
    });

    afterAll(async () => {
      expect(await t.app.get<ReadStore>(READ_STORE).collection(SCHEDULED_PROMPTS).countDocuments({ user_id: { $in: ['u1', 'a b'] } })).toBe(0);
    });

    it('a body that is not JSON or not an object', async () => {
      expect((await t.request('POST', '/time_agent', { rawBody: '{"user_id":' })).status).toBe(400);
      const res = await t.request('POST', '/time_agent', { rawBody: '[1,2]' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'request body must be a JSON object' });
    });
  });

  it('blocks a prompt the guardrail refuses with 403 and the reason; the block is recorded without the text', async () => {
    const body = { ...valid(), prompt: 'how do i make sarin at home' };
    const res = await schedule(body);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, error: expect.stringContaining('blocked') });
    const events = await conversation(t, body.user_id, body.prompt_id);
    expect(events.map((e) => e.type)).toEqual(['PromptBlocked']);
    expect(JSON.stringify(events)).not.toContain('sarin');
  });

  it('answers 202 with the receipt, stores only the redacted prompt, and shows the status', async () => {
    const body = { ...valid(), prompt: 'call the api with sk-proj-AbC123xYz456DeF789gHi012JkL345mNo please' };
    const res = await schedule({ ...body, unknown_field: true });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      success: true,
      data: { schedule_id: expect.stringMatching(/^sched-[0-9a-f-]{36}$/), user_id: body.user_id, prompt_id: body.prompt_id, run_at: body.schedule_time, status: 'scheduled' },
    });
    const id = res.body.data.schedule_id;
    const [scheduled] = await t.app.get<EventStore>(EVENT_STORE).readStream(scheduledPromptStreamId(id));
    expect(scheduled.data).toMatchObject({ prompt: 'call the api with [REDACTED:openai_api_key] please', redactions: [{ kind: 'openai_api_key', count: 1 }] });
    expect(JSON.stringify(scheduled)).not.toContain('sk-proj-');

    const view = await t.request('GET', `/time_agent/${id}`);
    expect(view.status).toBe(200);
    expect(view.body).toEqual({
      success: true,
      data: expect.objectContaining({ schedule_id: id, user_id: body.user_id, prompt_id: body.prompt_id, run_at: body.schedule_time, status: 'pending', attempts: 0 }),
    });
    expect(JSON.stringify(view.body)).not.toContain('call the api');
  });

  it('reads a timestamp without a zone as UTC', async () => {
    const at = inMs(120_000).replace('Z', '');
    const res = await schedule({ ...valid(), schedule_time: at });
    expect(res.status).toBe(202);
    expect(res.body.data.run_at).toBe(`${at}Z`);
  });

  it('answers 404 for an unknown schedule', async () => {
    for (const id of ['sched-00000000-0000-0000-0000-000000000000', 'not%20an%20id']) {
      const res = await t.request('GET', `/time_agent/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: 'scheduled prompt not found' });
    }
  });

  it('runs a due prompt once through the pipeline; the answer lands in the conversation under the schedule id', async () => {
    const body = { ...valid(), schedule_time: inMs(1500) };
    const res = await schedule(body);
    expect(res.status).toBe(202);
    const id = res.body.data.schedule_id;
    expect((await conversation(t, body.user_id, body.prompt_id)).length).toBe(0);

    const view = await untilSettled(t, id);
    expect(view).toMatchObject({ status: 'completed', attempts: 1, message_id: id, response_excerpt: expect.any(String) });
    expect(Date.parse(view.completed_at)).toBeGreaterThanOrEqual(Date.parse(body.schedule_time));

    // more polls of the scheduler change nothing
    await drainScheduler(t, id);
    const events = await conversation(t, body.user_id, body.prompt_id);
    const received = withMessage(events, 'PromptReceived', id);
    const responses = withMessage(events, 'ResponseGiven', id);
    expect(received).toHaveLength(1);
    expect(received[0].data).toMatchObject({ prompt: body.prompt, origin: 'schedule', user_id: body.user_id, prompt_id: body.prompt_id });
    expect(responses).toHaveLength(1);
    expect((responses[0].data as { response: string }).response.startsWith(view.response_excerpt)).toBe(true);
    const stream = await t.app.get<EventStore>(EVENT_STORE).readStream(scheduledPromptStreamId(id));
    expect(stream.map((e) => e.type)).toEqual(['PromptScheduled', 'ScheduledPromptClaimed', 'ScheduledPromptCompleted']);
  });
});

describe('/time_agent across a restart', () => {
  it('a prompt scheduled before a restart runs once after it', async () => {
    const first = await startTestApp();
    const body = { user_id: uniqueName('tr'), prompt_id: 'restart_1', prompt: 'what is 6 * 7?', schedule_time: inMs(2500) };
    const res = await first.request('POST', '/time_agent', { body });
    expect(res.status).toBe(202);
    const id = res.body.data.schedule_id;
    await first.close(false);
    expect(Date.now()).toBeLessThan(Date.parse(body.schedule_time)); // closed before it was due

    const second = await startTestApp({}, first.dataDir);
    try {
      const view = await untilSettled(second, id);
      expect(view).toMatchObject({ status: 'completed', attempts: 1 });
      await drainScheduler(second, id);
      const events = await conversation(second, body.user_id, body.prompt_id);
      expect(withMessage(events, 'PromptReceived', id)).toHaveLength(1);
      expect(withMessage(events, 'ResponseGiven', id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
