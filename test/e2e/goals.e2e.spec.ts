/**
 * Goals over HTTP on one node (issue 7, item 6; docs/goals-and-hive.md):
 * decomposition, the hive round trip through this node's own worker, the
 * per-goal status view, timeouts and retries, the compute-settings gate, and
 * validation. The two-node run over Kafka is goals-two-nodes.e2e.spec.ts.
 */
import { rmSync } from 'node:fs';
import { conversationStreamId } from '../../src/aggregates/chat/chat.events';
import { APP_CONFIG, type AppConfig, loadConfig } from '../../src/config/config';
import { MESSAGE_BUS, type MessageBus, type OutgoingMessage } from '../../src/infrastructure/bus/message-bus.port';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { UpcasterRegistry } from '../../src/infrastructure/eventsourcing/upcasters';
import { createEventStore, createKeyStore } from '../../src/infrastructure/ports.factory';
import { PERSONAL_DATA } from '../../src/aggregates/personal-data';
import { hiveNames } from '../../src/modules/hive/hive-messages';
import { HiveWorker } from '../../src/sagas/hive-worker.listener';
import { adapterEnv, adapterMode } from '../support/adapters';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { eventually } from '../support/eventually';

jest.setTimeout(120_000);

/** On the shared Kafka of the mongodb+kafka run, each app gets its own hive topics, so no other suite's node takes its tasks. */
function isolatedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...extra };
  if (adapterMode() !== 'embedded') env.KAFKA_TOPIC_PREFIX = uniqueName('goals');
  return env;
}

/** A goal's view, as the local guest or (with `token`) as its user sees it. */
async function goal(t: TestApp, id: string, token?: string) {
  const res = await t.request('GET', `/goals/${id}`, { token });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The goal's view once it has reached `status` (the hive round trip takes a while). */
function goalOnce(t: TestApp, id: string, status: string, timeoutMs = 60_000, token?: string) {
  return eventually(`goal ${id} to be ${status}`, () => goal(t, id, token), (view) => view.status === status, { timeoutMs });
}

describe('goals on one node', () => {
  let t: TestApp;
  let nodeId: string;
  beforeAll(async () => {
    t = await startTestApp(isolatedEnv());
    nodeId = (t.app.get(HiveWorker) as unknown as { config: { nodeId: string } }).config.nodeId;
  });
  afterAll(() => t?.close());

  it('given a goal of three steps, then it is split offline, each step runs on the hive, and the goal completes', async () => {
    const res = await t.request('POST', '/goals', {
      body: { user_id: 'u1', goal: '1. convert 5 km to miles\n2. what is 12 * 7\n3. reverse the text "hive"', unknown: true },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      success: true,
      data: {
        goal_id: expect.any(String),
        status: 'accepted',
        planned_by: 'offline',
        subtasks: [
          { subtask_id: 's1', description: 'convert 5 km to miles' },
          { subtask_id: 's2', description: 'what is 12 * 7' },
          { subtask_id: 's3', description: 'reverse the text "hive"' },
        ],
      },
    });
    const id = res.body.data.goal_id;
    // read-your-writes: the view exists right after the 202
    expect(['accepted', 'running', 'completed']).toContain((await goal(t, id)).status);

    const done = await goalOnce(t, id, 'completed');
    expect(done).toMatchObject({ goal_id: id, user_id: 'u1', status: 'completed', origin_node: nodeId, completed_at: expect.any(String), failure_reason: null });
    expect(done.subtasks).toHaveLength(3);
    for (const s of done.subtasks) {
      expect(s).toMatchObject({ status: 'completed', attempts: 1, node_id: nodeId, source: 'offline', model: 'offline', last_error: null });
      expect(s.result).toContain('No language model is configured');
    }
    expect(done.subtasks[1].result).toContain('84');
  });

  it('given an explicit list of subtasks, then they are taken as given', async () => {
    const res = await t.request('POST', '/goals', { body: { user_id: 'u2', goal: 'anything', subtasks: ['what is 2 + 2', 'what is 3 + 3'], timeout_sec: 30 } });
    expect(res.status).toBe(202);
    expect(res.body.data.planned_by).toBe('client');
    const done = await goalOnce(t, res.body.data.goal_id, 'completed');
    expect(done.subtasks.map((s: { description: string }) => s.description)).toEqual(['what is 2 + 2', 'what is 3 + 3']);
    expect(done.timeout_sec).toBe(30);
    expect(done.max_attempts).toBe(3);
  });

  it.each([
    [{ goal: 'x' }, 'user_id'],
    [{ user_id: 'u1' }, 'goal'],
    [{ user_id: 'u1', goal: 42 }, 'goal must be a string'],
    [{ user_id: 'u1', goal: '   ' }, 'goal must not be empty'],
    [{ user_id: 'bad id!', goal: 'x' }, 'user_id'],
    [{ user_id: 'u1', goal: 'x', subtasks: 'a; b' }, 'subtasks must be a list of strings'],
    [{ user_id: 'u1', goal: 'x', subtasks: [] }, 'subtasks must hold at least 1 item'],
    [{ user_id: 'u1', goal: 'x', subtasks: ['a', 7] }, 'subtasks must be a list of strings'],
    [{ user_id: 'u1', goal: 'x', subtasks: ['a', ' '] }, 'each subtask must not be empty'],
    [{ user_id: 'u1', goal: 'x', subtasks: Array.from({ length: 21 }, (_, i) => `s${i}`) }, 'at most 20'],
    [{ user_id: 'u1', goal: 'x', timeout_sec: 0 }, 'timeout_sec'],
    [{ user_id: 'u1', goal: 'x', timeout_sec: 1.5 }, 'timeout_sec'],
    [{ user_id: 'u1', goal: 'x', timeout_sec: '10' }, 'timeout_sec'],
    [{ user_id: 'u1', goal: 'x', max_attempts: 11 }, 'max_attempts'],
  ])('given %p, when POST /goals, then 400 naming the problem', async (body, message) => {
    const res = await t.request('POST', '/goals', { body });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toContain(message);
  });

  it('given a body that is not an object, an unknown goal or a malformed id, then 400 / 404', async () => {
    expect((await t.request('POST', '/goals', { rawBody: '[1]' })).status).toBe(400);
    expect((await t.request('POST', '/goals', { rawBody: '{"user_id":' })).status).toBe(400);
    const missing = await t.request('GET', '/goals/no-such-goal');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, error: 'goal not found' });
    expect((await t.request('GET', '/goals/bad%20id')).status).toBe(400);
  });
});

describe('a speculative /chat', () => {
  it('sends the expert run over the hive, and its answer joins the conversation once', async () => {
    const t = await startTestApp(isolatedEnv());
    const res = await t.request('POST', '/chat', { body: { user_id: 'spec1', prompt_id: 'p1', prompt: 'what is 9 * 9', speculative: true } });
    expect(res.status).toBe(200);
    const expertAnswers = async (store: Pick<EventStore, 'readStream'>) =>
      (await store.readStream(conversationStreamId('spec1', 'p1'))).filter((e) => e.type === 'ResponseGiven' && e.data.stage === 'expert');
    await eventually('the expert answer', async () => (await expertAnswers(t.app.get<EventStore>(EVENT_STORE))).length > 0, { timeoutMs: 30_000 });

    // drain: once the node has closed (its bus too, awaiting every handler in flight), nothing more is written
    await t.close(false);
    const config = loadConfig({ DATA_DIR: t.dataDir, ...adapterEnv(t.dataDir) });
    // the log as the node reads it: the answer is a personal field, sealed under the user's key
    const store = await createEventStore(config, new UpcasterRegistry(), { catalogue: PERSONAL_DATA, keys: await createKeyStore(config) });
    try {
      const answers = await expertAnswers(store);
      expect(answers).toHaveLength(1);
      expect(answers[0].data).toMatchObject({ source: 'offline' });
      expect(String(answers[0].data.response)).toContain('81');
    } finally {
      await store.close();
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});

describe('a node whose compute settings refuse hive work', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(isolatedEnv({ SVC_HIVE_COMPUTE_POLICY: 'local_only' }));
  });
  afterAll(() => t?.close());

  it('takes none of the tasks: every attempt times out and the goal fails after max_attempts', async () => {
    expect(t.app.get(HiveWorker).joined).toBe(false);
    const res = await t.request('POST', '/goals', { body: { user_id: 'u1', goal: 'what is 1 + 1', timeout_sec: 1, max_attempts: 2 } });
    expect(res.status).toBe(202);
    const failed = await goalOnce(t, res.body.data.goal_id, 'failed');
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'subtask s1 failed after 2 attempts', failed_at: expect.any(String) });
    expect(failed.subtasks).toEqual([
      expect.objectContaining({ subtask_id: 's1', status: 'failed', attempts: 2, node_id: null, result: null, last_error: 'attempt 2 timed out' }),
    ]);
    expect(t.app.get(HiveWorker).joined).toBe(false);
  });
});

describe('a node that changes its compute settings at run time', () => {
  const ADMIN = uniqueName('admin');
  let t: TestApp;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    t = await startTestApp(isolatedEnv({ SVC_ADMIN_USERS: ADMIN }));
    const res = await t.request('POST', '/api/social/register', { body: { username: ADMIN, email: `${ADMIN}@example.com`, password: 'correct horse battery' } });
    expect(res.status).toBe(201);
    token = res.body.data.token;
    userId = res.body.data.id;
  });
  afterAll(() => t?.close());

  const settings = (body: Record<string, unknown>) => t.request('PUT', '/api/settings/compute', { token, body });

  /** Every hive result this node has published since the test began (its worker's answers). */
  let resultsPublished: () => OutgoingMessage[];
  beforeEach(() => {
    const bus = t.app.get<MessageBus>(MESSAGE_BUS);
    const results = hiveNames(t.app.get<AppConfig>(APP_CONFIG).kafka?.topicPrefix).results;
    const publish = jest.spyOn(bus, 'publish');
    resultsPublished = () => publish.mock.calls.filter(([topic]) => topic === results).flatMap(([, messages]) => messages);
  });
  afterEach(() => jest.restoreAllMocks());

  it('given an authenticated caller, then it may post goals for itself only; a bad credential is 401', async () => {
    const other = await t.request('POST', '/goals', { token, body: { user_id: 'someone-else', goal: 'x' } });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ success: false, error: 'user_id must be the authenticated user' });
    const own = await t.request('POST', '/goals', { token, body: { user_id: userId, goal: 'what is 1 + 2' } });
    expect(own.status).toBe(202);
    expect((await t.request('POST', '/goals', { token: 'not-a-token', body: { user_id: userId, goal: 'x' } })).status).toBe(401);
    await goalOnce(t, own.body.data.goal_id, 'completed', 60_000, token);
    expect((await t.request('GET', `/goals/${own.body.data.goal_id}`)).status).toBe(404);
  });

  it('stops taking tasks once it refuses hive work, and takes the waiting ones once it allows it again', async () => {
    expect((await settings({ max_hive_gpu_pct: 0 })).status).toBe(200);
    const res = await t.request('POST', '/goals', { body: { user_id: 'u1', goal: 'what is 2 + 5; what is 3 * 3', timeout_sec: 60 } });
    expect(res.status).toBe(202);
    const id = res.body.data.goal_id;
    await eventually('every subtask dispatched', () => goal(t, id), (view) => view.subtasks.every((s: { status: string }) => s.status === 'dispatched'));
    const worker = t.app.get(HiveWorker);
    await eventually('the worker to leave hive-workers', () => !worker.joined);
    // drain: the leave has ended, and with it every task handler this worker had begun
    await worker.reconcile();
    expect(worker.joined).toBe(false);

    expect(resultsPublished().filter((m) => (m.value as { goal_id?: string }).goal_id === id)).toEqual([]);
    const waiting = await goal(t, id);
    expect(waiting.status).toBe('running');
    expect(waiting.subtasks.map((s: { node_id: string | null }) => s.node_id)).toEqual([null, null]);

    expect((await settings({ max_hive_gpu_pct: 40 })).status).toBe(200);
    const done = await goalOnce(t, id, 'completed', 30_000);
    expect(done.subtasks.map((s: { attempts: number; status: string }) => [s.status, s.attempts])).toEqual([
      ['completed', 1],
      ['completed', 1],
    ]);
  });
});
