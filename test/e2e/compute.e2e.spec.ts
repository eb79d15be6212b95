/**
 * Compute settings, provider dashboard and revenue dashboard over HTTP
 * (SPEC §2.3, §2.4, §4.3, §5 point 4, §7).
 */
import { READ_STORE, type ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { PEER_NODES, type PeerNodeDoc } from '../../src/projections/compute/peer-nodes.read-model';
import { adapterMode } from '../support/adapters';
import { signUp, startTestApp, TEST_PASSWORD, type TestApp, uniqueName } from '../support/app';
import { eventually } from '../support/eventually';
import { describeWithService, serviceEndpoint } from '../support/services/registry';

jest.setTimeout(120_000);

const ADMIN = uniqueName('admin');

async function login(t: TestApp, username: string): Promise<string> {
  const res = await t.request('POST', '/api/social/login', { body: { username, password: TEST_PASSWORD } });
  return res.body.data.token;
}

interface Tokens {
  admin: string;
  operator: string;
  user: string;
}

/** An admin (SVC_ADMIN_USERS), an operator (granted by the admin) and a plain user. */
async function people(t: TestApp): Promise<Tokens> {
  const admin = await signUp(t, { username: ADMIN });
  const operatorName = uniqueName('op');
  const operator = await signUp(t, { username: operatorName });
  const grant = await t.request('PUT', `/api/social/admin/users/${operator.id}/role`, { token: admin.token, body: { role: 'operator' } });
  expect(grant.status).toBe(200);
  const user = await signUp(t);
  return { admin: admin.token, operator: await login(t, operatorName), user: user.token };
}

const SETTINGS = '/api/settings/compute';

const EVERY_FIELD = {
  compute_policy: 'local_only',
  hive_compute_policy: 'hive_preferred',
  max_hive_gpu_pct: 80,
  allow_metered_for_hive: true,
  metered_daily_limit_usd: 12.5,
  offered_gpu_hours_per_day: 6,
  accept_thought_experiments: false,
  accept_frontier_training: true,
  auto_settle: false,
  min_settlement_spark: 25,
  cause_alignment: 'frontier_training',
  electricity_rate_kwh: 0.21,
};
const POLICY_FIELDS = Object.keys(EVERY_FIELD).filter((f) => f !== 'cause_alignment' && f !== 'electricity_rate_kwh');

describe('compute settings over HTTP', () => {
  let t: TestApp;
  let tokens: Tokens;
  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN, SVC_NODE_TIER: 'regional' });
    tokens = await people(t);
  });
  afterAll(() => t?.close());

  it('given nothing stored, then GET shows the defaults, the node id and where each value came from', async () => {
    const res = await t.request('GET', SETTINGS, { token: tokens.admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      node_id: expect.any(String),
      node_tier: 'regional',
      compute_policy: 'local_preferred',
      hive_compute_policy: 'local_preferred',
      max_hive_gpu_pct: 50,
      allow_metered_for_hive: false,
      metered_daily_limit_usd: 0,
      offered_gpu_hours_per_day: 0,
      accept_thought_experiments: true,
      accept_frontier_training: false,
      auto_settle: true,
      min_settlement_spark: 10,
      cause_alignment: 'democratize_compute',
      electricity_rate_kwh: 0,
    });
    expect(new Set(Object.values(res.body.sources))).toEqual(new Set(['default']));
  });

  it.each([
    ['GET', SETTINGS],
    ['PUT', SETTINGS],
    ['GET', `${SETTINGS}/provider`],
    ['GET', '/api/revenue/dashboard'],
    ['POST', `${SETTINGS}/provider/served`],
  ])('%s %s: no token 401, user 403, operator and admin 2xx', async (method, path) => {
    const body = method === 'GET' ? undefined : {};
    expect((await t.request(method, path, { body })).status).toBe(401);
    expect((await t.request(method, path, { body, token: tokens.user })).status).toBe(403);
    expect((await t.request(method, path, { body, token: tokens.operator })).status).toBeLessThan(300);
    expect((await t.request(method, path, { body, token: tokens.admin })).status).toBeLessThan(300);
  });

  it('given every field, when PUT, then each is routed to its store and GET shows it as stored', async () => {
    const res = await t.request('PUT', SETTINGS, { token: tokens.operator, body: { ...EVERY_FIELD, unknown_field: 'ignored' } });
    expect(res.status).toBe(200);
    const settings = await t.request('GET', SETTINGS, { token: tokens.admin });
    expect(res.body).toEqual({ updated: true, node_id: settings.body.node_id, policy_fields: POLICY_FIELDS, peer_fields: ['cause_alignment', 'electricity_rate_kwh'] });
    expect(settings.body).toMatchObject(EVERY_FIELD);
    expect(settings.body).not.toHaveProperty('unknown_field');
    expect(new Set(Object.values(settings.body.sources))).toEqual(new Set(['stored']));
  });

  it('given a subset, when PUT, then only those fields are listed', async () => {
    const res = await t.request('PUT', SETTINGS, { token: tokens.admin, body: { electricity_rate_kwh: 0.3 } });
    expect(res.body).toMatchObject({ updated: true, policy_fields: [], peer_fields: ['electricity_rate_kwh'] });
    const empty = await t.request('PUT', SETTINGS, { token: tokens.admin, body: { nothing: 1 } });
    expect(empty.body).toMatchObject({ updated: false, policy_fields: [], peer_fields: [] });
  });

  it.each([
    { compute_policy: 'everywhere' },
    { hive_compute_policy: 3 },
    { max_hive_gpu_pct: 101 },
    { max_hive_gpu_pct: 10.5 },
    { max_hive_gpu_pct: -1 },
    { max_hive_gpu_pct: '50' },
    { allow_metered_for_hive: 'true' },
    { metered_daily_limit_usd: -1 },
    { offered_gpu_hours_per_day: null },
    { accept_thought_experiments: 1 },
    { accept_frontier_training: 'no' },
    { auto_settle: null },
    { min_settlement_spark: 1.5 },
    { cause_alignment: 'world_peace' },
    { electricity_rate_kwh: '0.1' },
  ])('given the bad value %p next to good ones, when PUT, then 400 and nothing is stored', async (bad) => {
    const before = await t.request('GET', SETTINGS, { token: tokens.admin });
    const res = await t.request('PUT', SETTINGS, { token: tokens.admin, body: { compute_policy: 'cloud_allowed', electricity_rate_kwh: 9, ...bad } });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toContain(Object.keys(bad)[0]);
    expect((await t.request('GET', SETTINGS, { token: tokens.admin })).body).toEqual(before.body);
  });

  it('given a body that is not an object, when PUT, then 400', async () => {
    expect((await t.request('PUT', SETTINGS, { token: tokens.admin, rawBody: '[1]' })).status).toBe(400);
  });

  it('given a regional node, when enabling metered APIs for the hive, then it is stored', async () => {
    const res = await t.request('PUT', SETTINGS, { token: tokens.operator, body: { allow_metered_for_hive: true } });
    expect(res.status).toBe(200);
  });

  it('given served compute, settlements and rewards, then the provider dashboard adds them up', async () => {
    const report = { report_id: uniqueName('r'), gpu_hours: 1.5, inferences: 250, energy_kwh: 2, metered_api_cost_usd: 0.1 };
    expect((await t.request('POST', `${SETTINGS}/provider/served`, { token: tokens.operator, body: report })).status).toBe(201);
    const again = await t.request('POST', `${SETTINGS}/provider/served`, { token: tokens.operator, body: report });
    expect(again.body).toEqual({ recorded: false, report_id: report.report_id });
    const bad = await t.request('POST', `${SETTINGS}/provider/served`, { token: tokens.operator, body: { gpu_hours: -1 } });
    expect(bad.status).toBe(400);
    const s1 = await t.request('POST', `${SETTINGS}/provider/settlements`, { token: tokens.operator, body: { amount_usd: 12.34 } });
    const s2 = await t.request('POST', `${SETTINGS}/provider/settlements`, { token: tokens.operator, body: { amount_usd: 5 } });
    expect(s1.status).toBe(201);
    expect((await t.request('POST', `${SETTINGS}/provider/settlements/${s2.body.settlement_id}/complete`, { token: tokens.operator })).status).toBe(403);
    expect((await t.request('POST', `${SETTINGS}/provider/settlements/${s2.body.settlement_id}/complete`, { token: tokens.admin })).status).toBe(200);
    expect((await t.request('POST', `${SETTINGS}/provider/settlements/nope/complete`, { token: tokens.admin })).status).toBe(404);

    const res = await t.request('GET', `${SETTINGS}/provider`, { token: tokens.operator });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      node_tier: 'regional',
      compute_stats: { gpu_hours_served: 1.5, total_inferences: 250, energy_kwh_contributed: 2, metered_api_costs_absorbed: 0.1 },
      provider_identity: { cause_alignment: 'frontier_training', electricity_rate_kwh: 0.3 },
      pending_settlements: { count: 1, total_usd: 12.34 },
      reward_summary: { total_spark_earned: 0, total_rewards: 0 },
      contribution: { score: 22, breakdown: { gpu_hours: 15, inferences: 2.5, energy: 4, metered_costs: 0.5, rewards: 0 } },
    });
  });

  it('given an operator, when asking for another node or all nodes, then 403; an admin gets 404 for an unknown node and the list for all', async () => {
    expect((await t.request('GET', `${SETTINGS}/provider?node_id=other-node`, { token: tokens.operator })).status).toBe(403);
    expect((await t.request('GET', `${SETTINGS}/provider?scope=all`, { token: tokens.operator })).status).toBe(403);
    expect((await t.request('GET', `${SETTINGS}/provider?node_id=other-node`, { token: tokens.admin })).status).toBe(404);
    const all = await t.request('GET', `${SETTINGS}/provider?scope=all`, { token: tokens.admin });
    expect(all.status).toBe(200);
    const own = await t.request('GET', SETTINGS, { token: tokens.admin });
    expect(all.body.nodes[0]).toMatchObject({ node_id: own.body.node_id, local: true });
  });
});

describe('joining as a compute provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN });
  });
  afterAll(() => t?.close());

  it('given no authentication, when joining with no body at all, then 200 with the SPEC defaults; the peer fields are recorded, a later join changes nothing', async () => {
    const res = await t.request('POST', `${SETTINGS}/provider/join`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      joined: true,
      node_id: expect.any(String),
      config: { cause_alignment: 'democratize_compute', compute_policy: 'local_preferred', accept_thought_experiments: true, offered_gpu_hours_per_day: 0 },
    });
    const again = await t.request('POST', `${SETTINGS}/provider/join`, { body: { cause_alignment: 'frontier_training' } });
    expect(again.body.config.cause_alignment).toBe('democratize_compute');
    const { admin } = await people(t);
    const settings = await t.request('GET', SETTINGS, { token: admin });
    expect(settings.body.sources).toMatchObject({ cause_alignment: 'stored', compute_policy: 'default', accept_thought_experiments: 'default', electricity_rate_kwh: 'default' });
    expect((await t.request('GET', `${SETTINGS}/provider`, { token: admin })).body.joined).toBe(true);
  });

  it('given no authentication, when joining with policy fields, then they are ignored and named in ignored_fields', async () => {
    const res = await t.request('POST', `${SETTINGS}/provider/join`, { body: { compute_policy: 'hive_preferred', offered_gpu_hours_per_day: 24 } });
    expect(res.status).toBe(200);
    expect([...res.body.ignored_fields].sort()).toEqual(['compute_policy', 'offered_gpu_hours_per_day']);
    expect(res.body.config).toMatchObject({ compute_policy: 'local_preferred', offered_gpu_hours_per_day: 0 });
  });

  it('given a bad join field, then 400', async () => {
    const fresh = await startTestApp();
    try {
      expect((await fresh.request('POST', `${SETTINGS}/provider/join`, { body: { electricity_rate_kwh: -2 } })).status).toBe(400);
      expect((await fresh.request('POST', `${SETTINGS}/provider/join`, { body: { compute_policy: 'x' } })).status).toBe(400);
    } finally {
      await fresh.close();
    }
  });

  it('given an operator, when a fresh node joins with fields, then they are all recorded, the policy too', async () => {
    const fresh = await startTestApp({ SVC_ADMIN_USERS: ADMIN });
    try {
      const { admin } = await people(fresh);
      const res = await fresh.request('POST', `${SETTINGS}/provider/join`, {
        token: admin,
        body: { cause_alignment: 'open_research', electricity_rate_kwh: 0.15, offered_gpu_hours_per_day: 4, compute_policy: 'hive_preferred', accept_thought_experiments: false },
      });
      expect(res.body.config).toMatchObject({ cause_alignment: 'open_research', electricity_rate_kwh: 0.15, offered_gpu_hours_per_day: 4, compute_policy: 'hive_preferred', accept_thought_experiments: false });
    } finally {
      await fresh.close();
    }
  });
});

describe('a central-tier node', () => {
  let t: TestApp;
  let tokens: Tokens;
  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN, SVC_NODE_TIER: 'central' });
    tokens = await people(t);
  });
  afterAll(() => t?.close());

  it('refuses to enable metered APIs for the hive with the exact SPEC body, and stores nothing of that request', async () => {
    const res = await t.request('PUT', SETTINGS, { token: tokens.admin, body: { allow_metered_for_hive: true, compute_policy: 'local_only', electricity_rate_kwh: 1 } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Central nodes cannot enable metered APIs for hive' });
    const settings = await t.request('GET', SETTINGS, { token: tokens.admin });
    expect(settings.body).toMatchObject({ allow_metered_for_hive: false, compute_policy: 'local_preferred', electricity_rate_kwh: 0 });
  });

  it('accepts disabling metered APIs for the hive', async () => {
    const res = await t.request('PUT', SETTINGS, { token: tokens.operator, body: { allow_metered_for_hive: false } });
    expect(res.status).toBe(200);
    expect(res.body.policy_fields).toEqual(['allow_metered_for_hive']);
  });
});

describe('fields forced by the environment', () => {
  let t: TestApp;
  let tokens: Tokens;
  const forced = { SVC_COMPUTE_POLICY: 'local_only', SVC_MAX_HIVE_GPU_PCT: '20', SVC_ELECTRICITY_RATE_KWH: '0.4' };
  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN, ...forced });
    tokens = await people(t);
  });
  afterAll(() => t?.close());

  it('given a PUT of a forced field, then it is stored and listed, but the environment value is what GET shows', async () => {
    const res = await t.request('PUT', SETTINGS, { token: tokens.admin, body: { compute_policy: 'hive_preferred', electricity_rate_kwh: 0.1, auto_settle: false } });
    expect(res.body).toMatchObject({ updated: true, policy_fields: ['compute_policy', 'auto_settle'], peer_fields: ['electricity_rate_kwh'] });
    const settings = await t.request('GET', SETTINGS, { token: tokens.admin });
    expect(settings.body).toMatchObject({ compute_policy: 'local_only', max_hive_gpu_pct: 20, electricity_rate_kwh: 0.4, auto_settle: false, hive_compute_policy: 'local_preferred' });
    expect(settings.body.sources).toMatchObject({
      compute_policy: 'environment',
      max_hive_gpu_pct: 'environment',
      electricity_rate_kwh: 'environment',
      auto_settle: 'stored',
      hive_compute_policy: 'default',
    });
  });
});

describe('revenue dashboard over HTTP', () => {
  let t: TestApp;
  let tokens: Tokens;
  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN });
    tokens = await people(t);
  });
  afterAll(() => t?.close());

  it('given nothing recorded, then zeros and the empty trading and borrowing blocks', async () => {
    const res = await t.request('GET', '/api/revenue/dashboard', { token: tokens.operator });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      revenue: { period_days: 30, api_revenue: 0, ad_revenue: 0, hosting_payouts: 0, total_gross: 0, user_pool_share: 0, infra_pool_share: 0, central_share: 0 },
      trading: { portfolios: [], total_pnl: 0 },
      compute_borrowing: { active_escrows: 0, total_spark_escrowed: 0 },
    });
  });

  it('given entries with awkward amounts, then the streams add up and the 90/9/1 split sums to the gross to the cent', async () => {
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    for (const [stream, amount_cents, occurred_at] of [
      ['api', 333, undefined],
      ['api', 1001, undefined],
      ['ad', 77, undefined],
      ['hosting_payout', 12345, undefined],
      ['api', 50000, old],
    ] as const) {
      const res = await t.request('POST', '/api/revenue/records', { token: tokens.admin, body: { stream, amount_cents, occurred_at } });
      expect(res.status).toBe(201);
    }
    const res = await t.request('GET', '/api/revenue/dashboard?period_days=30', { token: tokens.admin });
    // gross 13756 cents: infra floor(1238.04) = 1238, central floor(137.56) = 137, users 12381
    expect(res.body.revenue).toEqual({
      period_days: 30,
      api_revenue: 13.34,
      ad_revenue: 0.77,
      hosting_payouts: 123.45,
      total_gross: 137.56,
      user_pool_share: 123.81,
      infra_pool_share: 12.38,
      central_share: 1.37,
    });
    const year = await t.request('GET', '/api/revenue/dashboard?period_days=365', { token: tokens.admin });
    expect(year.body.revenue.total_gross).toBe(637.56);
  });

  it.each(['0', '366', 'abc', '1.5', '-1'])('given period_days=%s, then 400', async (value) => {
    expect((await t.request('GET', `/api/revenue/dashboard?period_days=${value}`, { token: tokens.admin })).status).toBe(400);
  });

  it('given an operator, when recording revenue, then 403; bad entries get 400', async () => {
    expect((await t.request('POST', '/api/revenue/records', { token: tokens.operator, body: { stream: 'api', amount_cents: 1 } })).status).toBe(403);
    expect((await t.request('POST', '/api/revenue/records', { token: tokens.admin, body: { stream: 'api', amount_cents: 1.5 } })).status).toBe(400);
    expect((await t.request('POST', '/api/revenue/records', { token: tokens.admin, body: { stream: 'tips', amount_cents: 1 } })).status).toBe(400);
    expect((await t.request('POST', '/api/revenue/records', { token: tokens.admin, body: { stream: 'api', amount_cents: 1, occurred_at: 'yesterday' } })).status).toBe(400);
  });
});

// One run is enough: this suite sets its own adapters (two nodes on the shared Kafka).
const describeOnce: typeof describeWithService =
  adapterMode() === 'embedded' ? describeWithService : (_name, title, body) => describe.skip(title, body);

describeOnce('kafka', 'peer fields gossiped between two nodes', () => {
  let a: TestApp;
  let b: TestApp;
  const prefix = `gossip${Date.now().toString(36)}`;
  const nodeEnv = (id: string) => ({
    SVC_ADMIN_USERS: ADMIN,
    SVC_NODE_ID: id,
    NODE_ID: id,
    SVC_NODE_TIER: 'regional',
    BUS: 'kafka',
    KAFKA_BROKERS: serviceEndpoint('kafka')!,
    KAFKA_TOPIC_PREFIX: prefix,
  });
  let keyA: string;
  let keyB: string;

  /** Passport's JWT strategy is process-global (the last app started wins), so each node is driven with an admin API key. */
  async function adminKey(t: TestApp): Promise<string> {
    const { admin } = await people(t);
    const res = await t.request('POST', '/api/v1/intelligence/keys', { token: admin, body: { name: 'gossip', tier: 'free' } });
    expect(res.status).toBe(201);
    return res.body.data.key;
  }

  beforeAll(async () => {
    a = await startTestApp(nodeEnv(`${prefix}-a`));
    keyA = await adminKey(a);
    b = await startTestApp(nodeEnv(`${prefix}-b`));
    keyB = await adminKey(b);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  const asA = { headers: {} as Record<string, string> };
  // Polled in B's read model (an API key allows 100 requests a day); the HTTP view is checked once it arrived.
  const peerDocOnB = () => b.app.get<ReadStore>(READ_STORE).collection<PeerNodeDoc>(PEER_NODES).findOne({ _id: `${prefix}-a` });
  const peerOnB = () => b.request('GET', `${SETTINGS}/provider?node_id=${prefix}-a`, { headers: { 'x-api-key': keyB } });

  it('given node A changes its peer fields, then node B shows them in its peer view; A does not list itself as a peer', async () => {
    asA.headers = { 'x-api-key': keyA };
    const put = await a.request('PUT', SETTINGS, { ...asA, body: { cause_alignment: 'open_research', electricity_rate_kwh: 0.27, auto_settle: false } });
    expect(put.body.peer_fields).toEqual(['cause_alignment', 'electricity_rate_kwh']);
    await eventually('the new rate on B', async () => (await peerDocOnB())?.electricity_rate_kwh === 0.27, { timeoutMs: 60_000 });
    const peer = await peerOnB();
    expect(peer.body).toMatchObject({ node_id: `${prefix}-a`, node_tier: 'regional', local: false, provider_identity: { cause_alignment: 'open_research', electricity_rate_kwh: 0.27 } });

    await a.request('POST', `${SETTINGS}/provider/join`, { body: {} });
    await eventually('A joined, on B', async () => (await peerDocOnB())?.joined === true, { timeoutMs: 60_000 });
    expect((await peerOnB()).body.joined).toBe(true);

    const all = await a.request('GET', `${SETTINGS}/provider?scope=all`, asA);
    expect(all.body.nodes.filter((n: { node_id: string }) => n.node_id === `${prefix}-a`)).toHaveLength(1);
  });
});
