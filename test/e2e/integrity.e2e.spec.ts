/**
 * Node identity (issue 17, item 1; social-routes §20): the node's Ed25519
 * public key, its signed code hash, and a node-to-node route (POST
 * /integrity/challenge) that admits only requests signed by a registered
 * node, with a fresh timestamp and a nonce never seen before.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../src/infrastructure/canonical-json';
import { NODE_KEY_FILE, NodeKey, verifySignature } from '../../src/infrastructure/node-identity/node-key';
import { sendSigned, signRequest } from '../../src/infrastructure/node-identity/signed-request';
import passport from 'passport';
import { JwtStrategy } from '../../src/modules/accounts/auth/jwt.strategy';
import { startTestApp, type TestApp, uniqueName } from '../support/app';

jest.setTimeout(60_000);

const CHALLENGE = '/api/social/integrity/challenge';
const RESPONSE = '/api/social/integrity/challenge-response';
const ADMIN = uniqueName('integrityadmin');
const VERSION = '9.9.9-integrity';
// one secret for the two apps of this process: passport-jwt's verifier hook is static
const JWT_SECRET = 'integrity-suite-secret-of-at-least-32-chars';

describe('node identity and signed node requests', () => {
  let t: TestApp;
  const peer = NodeKey.generate();
  const impostor = NodeKey.generate();
  /** the keys of two nodes announced to this one with their URLs: one runs (a second app), one cannot be reached */
  const reachable = NodeKey.generate();
  const unreachable = NodeKey.generate();

  beforeAll(async () => {
    t = await startTestApp({
      TRUSTED_NODE_KEYS: `peer-1=${peer.publicKeyHex},peer-2=${impostor.publicKeyHex},peer-3=${reachable.publicKeyHex},peer-4=${unreachable.publicKeyHex}`,
      SVC_ADMIN_USERS: ADMIN,
      SVC_VERSION: VERSION,
      // the hash this node expects for the version both apps run: not the one they run, so a reported hash is a finding
      INTEGRITY_EXPECTED_HASHES: `${VERSION}=${'ab'.repeat(32)}`,
      FEDERATION_ALLOW_PRIVATE: '1',
      JWT_SECRET,
    });
    const res = await t.request('POST', '/api/social/register', { body: { username: ADMIN, email: `${ADMIN}@example.com`, password: 'correct horse battery' } });
    adminToken = res.body.data.token;
  });
  let adminToken: string;
  afterAll(() => t.close());

  /** POSTs `body` to the challenge route with the headers `sign` makes for its exact text. */
  function post(body: unknown, headers: Record<string, string>, path = CHALLENGE) {
    return t.request('POST', path, { rawBody: JSON.stringify(body), headers });
  }
  const signed = (body: unknown, key = peer, nodeId = 'peer-1', at = Date.now(), path = CHALLENGE) =>
    signRequest(key, nodeId, { method: 'POST', path, body: JSON.stringify(body) }, at);

  it('given a node, when its public key is asked for, then it answers its id and the key kept in DATA_DIR', async () => {
    const res = await t.request('GET', '/api/social/integrity/public-key');

    expect(res.status).toBe(200);
    expect(res.body.public_key).toBe(NodeKey.parse(readFileSync(join(t.dataDir, NODE_KEY_FILE), 'utf8')).publicKeyHex);
    expect(typeof res.body.node_id).toBe('string');
  });

  it('given the code hash route, when asked, then the hash of the running build comes signed by the node key', async () => {
    const { public_key } = (await t.request('GET', '/api/social/integrity/public-key')).body;

    const res = await t.request('GET', '/api/social/integrity/code-hash');

    const { signature, ...body } = res.body;
    expect(body.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(body.public_key).toBe(public_key);
    expect(verifySignature(public_key, canonicalJson(body), signature)).toBe(true);
  });

  it('given a challenge signed by a registered node, when posted, then the answer echoes the nonce and is signed by this node', async () => {
    const body = { type: 'code_hash_check', nonce: 'challenge-nonce-1' };
    const { code_hash, public_key } = (await t.request('GET', '/api/social/integrity/code-hash')).body;

    const res = await post(body, signed(body));

    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ type: 'code_hash_check', nonce: 'challenge-nonce-1', code_hash, public_key });
    expect(verifySignature(public_key, canonicalJson(res.body.response), res.body.signature)).toBe(true);
  });

  it('given a stats probe sent with the signing client, when posted, then the answer carries the log head', async () => {
    const res = await sendSigned(peer, 'peer-1', t.url, { method: 'POST', path: CHALLENGE, body: { type: 'stats_probe', nonce: 'challenge-nonce-2' } });

    expect(res.status).toBe(200);
    expect(((await res.json()) as { response: { head_position: unknown } }).response.head_position).toEqual(expect.any(Number));
  });

  it('given a challenge signed with a key other than the registered one, when posted, then 401', async () => {
    const body = { type: 'stats_probe', nonce: 'challenge-nonce-3' };

    const res = await post(body, signed(body, impostor));

    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Invalid node signature');
  });

  it('given a timestamp two minutes old, when posted, then 401', async () => {
    const body = { type: 'stats_probe', nonce: 'challenge-nonce-4' };

    const res = await post(body, signed(body, peer, 'peer-1', Date.now() - 120_000));

    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Node signature timestamp outside the allowed window');
  });

  it('given a captured request, when it is replayed, then the replay is refused; ten concurrent copies let exactly one through', async () => {
    const body = { type: 'stats_probe', nonce: 'challenge-nonce-5' };
    const headers = signed(body);
    expect((await post(body, headers)).status).toBe(200);

    const replay = await post(body, headers);
    const copies = signed(body);
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => post(body, copies)));

    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('Replayed node request');
    expect(concurrent.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(401)]);
  });

  it('given a signed request whose body was changed on the way, an unknown node, or no signature, when posted, then 401', async () => {
    const body = { type: 'stats_probe', nonce: 'challenge-nonce-6' };

    expect((await post({ ...body, nonce: 'challenge-nonce-7' }, signed(body))).status).toBe(401);
    expect((await post(body, signed(body, peer, 'peer-9'))).body.error).toBe('Unknown node');
    expect((await post(body, {})).status).toBe(401);
  });

  it('given an unknown challenge type, or no nonce, when posted signed, then 400 naming it', async () => {
    const unknown = { type: 'mind_reading', nonce: 'challenge-nonce-8' };
    const missing = { type: 'stats_probe' };

    const first = await post(unknown, signed(unknown));
    const second = await post(missing, signed(missing));

    expect(first.status).toBe(400);
    expect(first.body.error).toMatch(/^type must be one of/);
    expect(second.status).toBe(400);
    expect(second.body.error).toMatch(/nonce/);
  });

  it.each([
    ['agent_count_verify', { agent_count: 0, post_count: 0 }],
    ['guardrail_verify', { guardrail_hash: expect.stringMatching(/^[0-9a-f]{64}$/), consistent: true }],
    ['impression_audit', { ad_id: 'no-such-ad', known: false }],
  ])('given a signed %s challenge, when posted, then the signed answer carries what the type asks about', async (type, specific) => {
    const body = { type, nonce: 'challenge-nonce-8', ad_id: 'no-such-ad' };

    const res = await post(body, signed(body));

    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ type, nonce: 'challenge-nonce-8', ...specific });
    const { public_key } = (await t.request('GET', '/api/social/integrity/public-key')).body;
    expect(verifySignature(public_key, canonicalJson(res.body.response), res.body.signature)).toBe(true);
  });

  describe('challenges this node issues', () => {
    const issue = (body: unknown) => t.request('POST', '/api/social/integrity/challenges', { token: adminToken, body });
    /** The target's answer: `response` signed with its node key, posted as a signed request of that node. */
    const respond = (challengeId: string, response: Record<string, unknown>, key = peer, nodeId = 'peer-1') => {
      const body = { challenge_id: challengeId, response, signature: key.sign(canonicalJson(response)) };
      return post(body, signed(body, key, nodeId, Date.now(), RESPONSE), RESPONSE);
    };

    it('given an admin, when a challenge is issued to a peer, then it is pending with a fresh nonce and listed', async () => {
      const res = await issue({ target_node_id: 'peer-1', type: 'stats_probe' });

      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ target_node_id: 'peer-1', challenge_type: 'stats_probe', status: 'pending', result_details: null });
      expect(res.body.data.challenge_nonce).toMatch(/^[0-9a-f]{64}$/);
      const list = await t.request('GET', '/api/social/integrity/challenges', { token: adminToken });
      expect(list.body.data.map((c: { id: string }) => c.id)).toContain(res.body.data.id);
    });

    it('given the target\'s signed answer echoing the nonce, when posted back, then it passes once; a second answer is already processed', async () => {
      const { id, challenge_nonce } = (await issue({ target_node_id: 'peer-1', type: 'code_hash_check' })).body.data;

      const first = await respond(id, { nonce: challenge_nonce, code_hash: 'ab'.repeat(32) });
      const second = await respond(id, { nonce: challenge_nonce, code_hash: 'ab'.repeat(32) });

      expect(first.body).toEqual({ success: true, passed: true, details: 'nonce and signature verified' });
      expect(second.body).toEqual({ success: true, passed: false, details: 'Challenge already processed' });
      const list = (await t.request('GET', '/api/social/integrity/challenges', { token: adminToken })).body.data;
      expect(list.find((c: { id: string }) => c.id === id)).toMatchObject({ status: 'passed', result_details: 'nonce and signature verified' });
    });

    it('given answers with the wrong nonce, from another node, or for no challenge, when posted, then none passes and each says why', async () => {
      const a = (await issue({ target_node_id: 'peer-1', type: 'stats_probe' })).body.data;
      const b = (await issue({ target_node_id: 'peer-1', type: 'stats_probe' })).body.data;

      expect((await respond(a.id, { nonce: 'not-the-nonce' })).body).toMatchObject({ passed: false, details: 'nonce mismatch' });
      expect((await respond(b.id, { nonce: b.challenge_nonce }, impostor, 'peer-2')).body).toMatchObject({ passed: false, details: 'response from peer-2, but the challenge went to peer-1' });
      expect((await respond('no-such-challenge', { nonce: 'x' })).body).toMatchObject({ passed: false, details: 'Unknown challenge' });
    });

    it('given five answers to one challenge at once, when posted, then exactly one is evaluated', async () => {
      const { id, challenge_nonce } = (await issue({ target_node_id: 'peer-1', type: 'stats_probe' })).body.data;

      const results = await Promise.all(Array.from({ length: 5 }, () => respond(id, { nonce: challenge_nonce })));

      expect(results.map((r) => r.body.passed).sort()).toEqual([false, false, false, false, true]);
    });

    it('given an answer whose signature is not the target\'s, when posted, then it fails on the signature', async () => {
      const { id, challenge_nonce } = (await issue({ target_node_id: 'peer-1', type: 'stats_probe' })).body.data;
      const response = { nonce: challenge_nonce };
      const body = { challenge_id: id, response, signature: impostor.sign(canonicalJson(response)) };

      const res = await post(body, signed(body, peer, 'peer-1', Date.now(), RESPONSE), RESPONSE);

      expect(res.body).toMatchObject({ passed: false, details: 'signature mismatch' });
    });
  });

  describe('bans', () => {
    const ban = (nodeId: string, action: 'ban' | 'unban', token = adminToken) =>
      t.request('POST', `/api/social/integrity/node/${nodeId}/ban`, { token, body: { action, reason: 'forged impressions' } });
    const probe = (nonce: string) => {
      const body = { type: 'stats_probe', nonce };
      return post(body, signed(body));
    };

    it('given an admin bans a node, when that node sends a signed request, then 403 until the ban is lifted; the ban list shows it meanwhile', async () => {
      const banned = await ban('peer-1', 'ban');
      const refused = await probe('ban-nonce-01');
      const list = await t.request('GET', '/api/social/integrity/ban-list');
      const lifted = await ban('peer-1', 'unban');
      const admitted = await probe('ban-nonce-02');

      expect(banned.body).toEqual({ success: true, action: 'ban', node_id: 'peer-1', banned: true });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('Node is banned');
      expect(list.body).toEqual({ banned_node_ids: ['peer-1'] });
      expect(lifted.body).toMatchObject({ banned: false });
      expect(admitted.status).toBe(200);
      expect((await t.request('GET', '/api/social/integrity/ban-list')).body).toEqual({ banned_node_ids: [] });
    });

    it('given a bad action or node id, when banning, then 400', async () => {
      expect((await t.request('POST', '/api/social/integrity/node/peer-1/ban', { token: adminToken, body: { action: 'smite' } })).body.error).toBe('action must be one of ban, unban');
      expect((await ban('bad%20id', 'ban')).status).toBe(400);
    });
  });

  describe('challenges sent to a node whose URL this node knows', () => {
    let target: TestApp;
    const issue = (body: unknown) => t.request('POST', '/api/social/integrity/challenges', { token: adminToken, body });
    const announce = (key: NodeKey, nodeId: string, url: string) => sendSigned(key, nodeId, t.url, { method: 'POST', path: '/api/social/peers/announce', body: { node_id: nodeId, url } });

    beforeAll(async () => {
      const self = (await t.request('GET', '/api/social/integrity/public-key')).body;
      target = await startTestApp({ SVC_NODE_ID: 'peer-3', NODE_PRIVATE_KEY: reachable.toPem(), TRUSTED_NODE_KEYS: `${self.node_id}=${self.public_key}`, SVC_VERSION: VERSION, JWT_SECRET });
      // passport keeps one `jwt` strategy per process, the last app's: the admin's requests go to the first app
      passport.use('jwt', t.app.get(JwtStrategy));
      expect((await announce(reachable, 'peer-3', target.url)).status).toBe(200);
      expect((await announce(unreachable, 'peer-4', 'http://127.0.0.1:1')).status).toBe(200);
    });
    afterAll(() => target?.close());

    it.each(['code_hash_check', 'stats_probe', 'agent_count_verify', 'guardrail_verify', 'impression_audit'])(
      'given the node runs, when an admin issues a %s challenge, then it is sent there, answered, and passes at once',
      async (type) => {
        const res = await issue({ target_node_id: 'peer-3', type, ad_id: 'some-ad' });

        expect(res.status).toBe(201);
        expect(res.body.data).toMatchObject({ target_node_id: 'peer-3', challenge_type: type, status: 'passed', result_details: 'nonce and signature verified', delivery: { attempted: true, delivered: true, error: null } });
        const listed = (await t.request('GET', '/api/social/integrity/challenges', { token: adminToken })).body.data;
        expect(listed.find((c: { id: string }) => c.id === res.body.data.id)).toMatchObject({ status: 'passed' });
      },
    );

    it('given the node cannot be reached, when challenged, then the challenge stays pending and the delivery says why', async () => {
      const res = await issue({ target_node_id: 'peer-4', type: 'stats_probe' });

      expect(res.body.data).toMatchObject({ status: 'pending', delivery: { attempted: true, delivered: false, error: expect.any(String) } });
    });

    it('given a node with no known URL, when challenged, then the challenge waits for its answer: nothing is sent', async () => {
      const res = await issue({ target_node_id: 'peer-1', type: 'stats_probe' });

      expect(res.body.data).toMatchObject({ status: 'pending', delivery: { attempted: false, delivered: false, error: null } });
    });

    it('given the node reports a code hash other than the one expected for its version, when audited, then the round probes it and raises a critical alert', async () => {
      const res = await t.request('POST', '/api/social/integrity/node/peer-3/audit', { token: adminToken });

      expect(res.status).toBe(200);
      expect(res.body.data.alerts).toEqual([expect.objectContaining({ alert_type: 'code_hash_mismatch', severity: 'critical', fraud_score_delta: 40, evidence: expect.objectContaining({ source: 'reported', version: VERSION }) })]);
      const probes = (await t.request('GET', '/api/social/integrity/challenges', { token: adminToken })).body.data.filter((c: { target_node_id: string; challenge_type: string }) => c.target_node_id === 'peer-3' && c.challenge_type === 'code_hash_check');
      expect(probes.length).toBeGreaterThanOrEqual(2);
    });
  });
});
