/**
 * The goal saga across two service instances sharing Kafka (issue 7, item 7):
 * node A refuses hive work (SVC_HIVE_COMPUTE_POLICY=local_only), node B takes
 * it; a goal accepted on A is decomposed on A, its sub-tasks travel over
 * `<prefix>.hive.tasks` to B, B's results come back on `<prefix>.hive.results`,
 * and A's goal completes with every sub-task done by B. Each node keeps its
 * own event store and read store; only the bus is shared.
 *
 * Runs once, in the embedded e2e project, when the global setup started Kafka
 * (like the gossip suite of compute.e2e.spec.ts); skipped with the reason otherwise.
 */
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { HiveWorker } from '../../src/sagas/hive-worker.listener';
import { adapterMode } from '../support/adapters';
import { startTestApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { describeWithService, serviceEndpoint } from '../support/services/registry';

jest.setTimeout(180_000);

const describeOnce: typeof describeWithService =
  adapterMode() === 'embedded' ? describeWithService : (_name, title, body) => describe.skip(title, body);

describeOnce('kafka', 'goals across two nodes sharing Kafka', () => {
  let a: TestApp;
  let b: TestApp;
  const prefix = `hive${Date.now().toString(36)}`;
  const nodeEnv = (id: string, extra: Record<string, string> = {}) => ({
    SVC_NODE_ID: id,
    NODE_ID: id,
    BUS: 'kafka',
    KAFKA_BROKERS: serviceEndpoint('kafka')!,
    KAFKA_TOPIC_PREFIX: prefix,
    ...extra,
  });

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startTestApp(nodeEnv(`${prefix}-a`, { SVC_HIVE_COMPUTE_POLICY: 'local_only' })),
      startTestApp(nodeEnv(`${prefix}-b`)),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('given A refuses hive work and B takes it, when A accepts a goal, then B runs its sub-tasks and A’s goal completes', async () => {
    // B is in the workers' group once it joined Kafka; A never joins it
    await eventually('B to join hive-workers', () => b.app.get(HiveWorker).joined, { timeoutMs: 60_000 });
    expect(a.app.get(HiveWorker).joined).toBe(false);

    const res = await a.request('POST', '/goals', {
      body: { user_id: 'u1', goal: 'what is 6 * 7, then convert 10 km to miles, then reverse the text "kafka"', timeout_sec: 60 },
    });
    expect(res.status).toBe(202);
    expect(res.body.data.subtasks).toHaveLength(3);
    const id = res.body.data.goal_id;

    const view = async () => (await a.request('GET', `/goals/${id}`)).body.data;
    const done = await eventually('the goal to complete', view, (v) => v.status === 'completed', { timeoutMs: 90_000 });
    expect(done).toMatchObject({ status: 'completed', origin_node: `${prefix}-a` });
    for (const s of done.subtasks) expect(s).toMatchObject({ status: 'completed', node_id: `${prefix}-b`, attempts: 1, source: 'offline' });
    expect(done.subtasks[0].result).toContain('42');

    // the goal lives on A only: B's read model never saw it
    expect((await b.request('GET', `/goals/${id}`)).status).toBe(404);
    expect(a.app.get(HiveWorker).joined).toBe(false);
  });

  it('given a speculative /chat on A, then B runs the expert run and its answer joins A’s conversation', async () => {
    const res = await a.request('POST', '/chat', { body: { user_id: 'spec2', prompt_id: 'p2', prompt: 'what is 7 * 8', speculative: true } });
    expect(res.status).toBe(200);
    const store = a.app.get<EventStore>(EVENT_STORE);
    const expertAnswers = async () =>
      (await store.readStream('conversation-spec2/p2')).filter((e) => e.type === 'ResponseGiven' && e.data.stage === 'expert');
    await eventually('the expert answer', async () => (await expertAnswers()).length > 0, { timeoutMs: 60_000 });
    const [answer] = await expertAnswers();
    expect(answer.metadata.actor).toBe(`node:${prefix}-b`);
    expect(String(answer.data.response)).toContain('56');
  });
});
