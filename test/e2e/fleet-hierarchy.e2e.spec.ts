/**
 * Fleet and hierarchy (social-routes §18, issue 17 part B): node-to-node
 * routes signed and checked against the sender's registered key, central-only
 * routes, promote and demote queueing the fixed fleet commands, the
 * one-time upgrade challenge verified against the master key, and the
 * provision records (admins only; nothing is ever executed).
 */
import { NodeKey } from '../../src/infrastructure/node-identity/node-key';
import { sendSigned } from '../../src/infrastructure/node-identity/signed-request';
import { signUp, startTestApp, type SignedUpUser, type TestApp, uniqueName } from '../support/app';

jest.setTimeout(90_000);

const P = '/api/social';
const H = `${P}/hierarchy`;
const ADMIN = uniqueName('fleetadmin');

async function call(t: TestApp, key: NodeKey, nodeId: string, method: string, path: string, body?: unknown) {
  const res = await sendSigned(key, nodeId, t.url, { method, path, body });
  return { status: res.status, body: (await res.json()) as any };
}

describe('the hierarchy on a central node', () => {
  let t: TestApp;
  const operator = NodeKey.generate();
  const regional = NodeKey.generate();
  const local = NodeKey.generate();
  const local2 = NodeKey.generate();
  const stranger = NodeKey.generate();

  beforeAll(async () => {
    t = await startTestApp({ SVC_NODE_TIER: 'central', TRUSTED_NODE_KEYS: `operator-1=${operator.publicKeyHex}`, FEDERATION_AUTO_ACCEPT: '1', SVC_ADMIN_USERS: ADMIN });
    const joined = await call(t, regional, 'regional-1', 'POST', `${P}/federation/nodes/register`, { node_id: 'regional-1', public_key: regional.publicKeyHex, url: 'http://127.0.0.1:1', tier: 'regional' });
    expect(joined.body.data.status).toBe('approved');
  });
  afterAll(() => t.close());

  const registerLocal = (key: NodeKey, nodeId: string, extra: Record<string, unknown> = {}) =>
    call(t, key, nodeId, 'POST', `${H}/register-local`, { node_id: nodeId, public_key: key.publicKeyHex, compute_info: { cpu_cores: 2 }, ...extra });

  it('given a local node signing with the key it registers, then it is registered (no region yet); unsigned or signed by another key, 401', async () => {
    expect((await registerLocal(local, 'local-1')).body).toEqual({ success: true, node_id: 'local-1', tier: 'local', region_id: null });
    expect((await t.request('POST', `${H}/register-local`, { body: { node_id: 'local-x', public_key: stranger.publicKeyHex } })).status).toBe(401);
    expect((await call(t, stranger, 'local-1', 'POST', `${H}/register-local`, { node_id: 'local-1', public_key: local.publicKeyHex })).status).toBe(401);
    expect((await registerLocal(stranger, 'local-1')).status).toBe(409);
  });

  it('given a trusted node, when it registers as regional, then it leads a region; an untrusted key is 401, a foreign key in the body 400', async () => {
    const res = await call(t, regional, 'regional-1', 'POST', `${H}/register-regional`, { node_id: 'regional-1', public_key: regional.publicKeyHex, region_name: 'North', compute_info: { cpu_cores: 8 } });
    expect(res.body).toEqual({ success: true, node_id: 'regional-1', tier: 'regional', region_id: 'regional-1' });
    expect((await call(t, stranger, 'stranger-1', 'POST', `${H}/register-regional`, { node_id: 'stranger-1', public_key: stranger.publicKeyHex, region_name: 'X' })).status).toBe(401);
    expect((await call(t, regional, 'regional-1', 'POST', `${H}/register-regional`, { node_id: 'regional-1', public_key: stranger.publicKeyHex, region_name: 'North' })).status).toBe(400);
  });

  it('given a region, then a new local node joins it, and an existing one is assigned on request', async () => {
    expect((await registerLocal(local2, 'local-2')).body.region_id).toBe('regional-1');
    expect((await call(t, local, 'local-1', 'POST', `${H}/assign-region`, { local_node_id: 'local-1' })).body).toEqual({ success: true, node_id: 'local-1', region_id: 'regional-1' });
    const regions = await t.request('GET', `${H}/regions`);
    expect(regions.body).toMatchObject({ success: true, count: 1, data: [{ region_id: 'regional-1', region_name: 'North', local_count: 2, status: 'active' }] });
    expect((await t.request('GET', `${H}/region/regional-1/health`)).body).toMatchObject({ status: 'healthy', local_nodes: { total: 2 } });
    expect((await t.request('GET', `${H}/node/local-2/assignment`)).body).toMatchObject({ region_id: 'regional-1', regional_node_id: 'regional-1' });
    expect((await t.request('GET', `${H}/node/nobody/assignment`)).status).toBe(404);
    expect((await t.request('GET', `${H}/region/nowhere/health`)).status).toBe(404);
  });

  it('given a local node, when it switches to an unknown region, then 404; reporting for another node is 403', async () => {
    expect((await call(t, local, 'local-1', 'POST', `${H}/switch-region`, { local_node_id: 'local-1', new_region_id: 'atlantis' })).status).toBe(404);
    expect((await call(t, local, 'local-1', 'POST', `${H}/switch-region`, { local_node_id: 'local-2', new_region_id: 'regional-1' })).status).toBe(403);
    expect((await call(t, local2, 'local-2', 'POST', `${H}/report-capacity`, { node_id: 'local-2', compute_info: { cpu_cores: 4, gpu_count: 1 } })).status).toBe(200);
    expect((await call(t, local2, 'local-2', 'POST', `${H}/report-capacity`, { node_id: 'local-1', compute_info: {} })).status).toBe(403);
  });

  it('given the operator, when a local node is promoted, then it is regional and tier_promote is queued with restart_required', async () => {
    const res = await call(t, operator, 'operator-1', 'POST', `${H}/promote`, { node_id: 'local-2', region_name: 'South' });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, command: { target_node_id: 'local-2', cmd_type: 'tier_promote', params: { restart_required: true, region_name: 'South' } } });
    expect((await call(t, operator, 'operator-1', 'POST', `${H}/promote`, { node_id: 'local-2', region_name: 'South' })).body.error).toBe('Node is already regional');
    expect((await call(t, operator, 'operator-1', 'POST', `${H}/promote`, { node_id: 'ghost', region_name: 'X' })).status).toBe(404);
  });

  it('given a trusted node that is not an authority, or a local key, then promote is 403 or 401', async () => {
    expect((await call(t, regional, 'regional-1', 'POST', `${H}/promote`, { node_id: 'local-1', region_name: 'X' })).status).toBe(403);
    expect((await call(t, local, 'local-1', 'POST', `${H}/promote`, { node_id: 'local-1', region_name: 'X' })).status).toBe(401);
    expect((await t.request('POST', `${H}/promote`, { body: { node_id: 'local-1', region_name: 'X' } })).status).toBe(401);
  });

  it('given concurrent promotions of one node, then exactly one succeeds and the other is 400', async () => {
    const key = NodeKey.generate();
    expect((await registerLocal(key, 'local-4')).status).toBe(200);
    const results = await Promise.all([1, 2].map(() => call(t, operator, 'operator-1', 'POST', `${H}/promote`, { node_id: 'local-4', region_name: 'East' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it('given a regional node, when demoted, then tier_demote is queued; demoting a node that is not regional is 400', async () => {
    const res = await call(t, operator, 'operator-1', 'POST', `${H}/demote`, { node_id: 'local-2', reason: 'too slow' });
    expect(res.body).toMatchObject({ success: true, command: { cmd_type: 'tier_demote', params: { clear_certificate: true } } });
    expect((await call(t, operator, 'operator-1', 'POST', `${H}/demote`, { node_id: 'local-1' })).body.error).toBe('Node is not regional');
  });

  it('given the operator, then the inventory counts the tiers with this central node among them', async () => {
    const res = await call(t, operator, 'operator-1', 'GET', `${H}/inventory`);
    expect(res.body.counts).toMatchObject({ central: 1, regional: 2, flat: 1 });
    expect(res.body.inventory.local.map((n: { node_id: string }) => n.node_id)).toEqual(expect.arrayContaining(['local-1']));
  });

  describe('provision records', () => {
    let admin: SignedUpUser;
    let user: SignedUpUser;
    beforeAll(async () => {
      admin = await signUp(t, { username: ADMIN });
      user = await signUp(t, { prefix: 'fleetuser' });
    });

    it('given an admin deploy, then a record and a plan of argument arrays, nothing executed; a plain user is 403', async () => {
      const res = await t.request('POST', '/api/provision/deploy', { token: admin.token, body: { target_host: 'node7.lan', no_llm: true, provisioned_by: 'someone' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ executed: false, node: { id: expect.any(Number), target_host: 'node7.lan', ssh_user: 'root', status: 'planned', provisioned_by: admin.id } });
      expect(res.body.plan[0].argv).toContain('root@node7.lan');
      expect((await t.request('POST', '/api/provision/deploy', { token: user.token, body: { target_host: 'node7.lan' } })).status).toBe(403);
      expect((await t.request('GET', '/api/provision/nodes')).status).toBe(401);
    });

    it('given request text made to break out of a command line, then it is refused, not planned', async () => {
      const res = await t.request('POST', '/api/provision/deploy', { token: admin.token, body: { target_host: 'host; rm -rf /' } });
      expect(res.status).toBe(400);
      expect((await t.request('POST', '/api/provision/deploy', { token: admin.token, body: { ssh_user: 'root' } })).body.error).toBe('target_host is required');
    });

    it('given a record, then it is listed, shown, and deleted to decommissioned; unknown ids are 404', async () => {
      const { id } = (await t.request('POST', '/api/provision/deploy', { token: admin.token, body: { target_host: '10.0.0.9' } })).body.node;
      expect((await t.request('GET', '/api/provision/nodes', { token: admin.token })).body.nodes.map((n: { id: number }) => n.id)).toContain(id);
      expect((await t.request('POST', `/api/provision/update/${id}`, { token: admin.token })).body).toMatchObject({ executed: false, node: { status: 'planned' } });
      expect((await t.request('DELETE', `/api/provision/nodes/${id}`, { token: admin.token })).body.success).toBe(true);
      expect((await t.request('GET', `/api/provision/nodes/${id}`, { token: admin.token })).body.status).toBe('decommissioned');
      expect((await t.request('GET', '/api/provision/nodes/99999', { token: admin.token })).status).toBe(404);
      expect((await t.request('GET', '/api/provision/nodes/abc', { token: admin.token })).status).toBe(404);
    });

    it('given concurrent deploys, then each gets its own id', async () => {
      const results = await Promise.all([1, 2, 3].map((i) => t.request('POST', '/api/provision/deploy', { token: admin.token, body: { target_host: `race${i}.lan` } })));
      expect(new Set(results.map((r) => r.body.node.id)).size).toBe(3);
    });

    it('given a scan, then nothing is scanned and the reply says so; a preflight runs nothing and says so', async () => {
      const scan = await t.request('POST', '/api/provision/scan', { token: admin.token, body: { subnet: '10.0.0.0/24' } });
      expect(scan.body).toMatchObject({ count: 0, targets: [], subnet: '10.0.0.0/24', scanned: false, message: expect.stringMatching(/runs no commands/) });
      expect((await t.request('POST', '/api/provision/scan', { token: admin.token, body: { subnet: '10.0.0.0/24; ls' } })).status).toBe(400);
      const preflight = await t.request('POST', '/api/provision/preflight', { token: admin.token, body: { target_host: 'node7.lan' } });
      expect(preflight.body).toMatchObject({ executed: false, ready: false });
    });
  });
});

describe('a flat node and the upgrade to central', () => {
  let t: TestApp;
  const master = NodeKey.generate();
  const operator = NodeKey.generate();

  beforeAll(async () => {
    t = await startTestApp({ HIERARCHY_MASTER_PUBLIC_KEY: master.publicKeyHex, TRUSTED_NODE_KEYS: `operator-1=${operator.publicKeyHex}` });
  });
  afterAll(() => t.close());

  const challenge = async (): Promise<string> => (await t.request('GET', `${H}/upgrade-challenge`)).body.challenge;
  const verify = (body: unknown) => t.request('POST', `${H}/verify-upgrade`, { body });

  it('given a node that is not central, then the central-only routes are 403 `Central tier required`', async () => {
    const res = await call(t, operator, 'operator-1', 'POST', `${H}/promote`, { node_id: 'x', region_name: 'X' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Central tier required');
    expect((await t.request('GET', `${H}/tier-info`)).body).toMatchObject({ tier: 'flat', master_key_configured: true });
  });

  it('given a challenge signed by another key, or a signature over another text, then 403', async () => {
    const c = await challenge();
    const impostor = NodeKey.generate();
    expect((await verify({ challenge: c, signature: impostor.sign(c), public_key_hex: impostor.publicKeyHex })).body.error).toBe('Not the master key');
    expect((await verify({ challenge: c, signature: master.sign(`${c}x`), public_key_hex: master.publicKeyHex })).body.error).toBe('Invalid signature');
    expect((await verify({ challenge: 'a'.repeat(64), signature: master.sign('a'.repeat(64)), public_key_hex: master.publicKeyHex })).body.error).toBe('Invalid or expired challenge');
    expect((await verify({ challenge: c })).status).toBe(400);
  });

  it('given the master key’s signature over a fresh challenge, then the node is central, and the challenge cannot be used twice', async () => {
    const c = await challenge();
    const body = { challenge: c, signature: master.sign(c), public_key_hex: master.publicKeyHex };

    const res = await verify(body);

    expect(res.body).toMatchObject({ success: true, tier: 'central', upgraded: true });
    expect((await t.request('GET', `${H}/tier-info`)).body).toMatchObject({ tier: 'central', configured_tier: 'flat', upgraded_at: expect.any(String) });
    expect((await verify(body)).status).toBe(403);
    expect((await call(t, operator, 'operator-1', 'POST', `${H}/promote`, { node_id: 'ghost', region_name: 'X' })).status).toBe(404);
  });

  it('given update approval, then every version is approved', async () =>
    expect((await t.request('GET', `${P}/fleet/update-approved?v=9.1.0`)).body).toEqual({ approved: true, version: '9.1.0' }));
});
