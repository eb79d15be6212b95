/**
 * Integrity oversight and the audit views (social-routes §20, issue 17):
 * impression witnessing checked against the requester's registered key,
 * peer stats, the guardrail hash, the registry routes, alerts from audit
 * rounds with the fraud score (decay 2 a round, 80 bans), admin guards, and
 * the audit views where a plain user sees only their own.
 */
import { NodeKey } from '../../src/infrastructure/node-identity/node-key';
import { sendSigned, signRequest } from '../../src/infrastructure/node-identity/signed-request';
import { signImpressionWitnessRequest, verifyWitnessCoSignature } from '../../src/modules/integrity/witness';
import { signUp, startTestApp, type SignedUpUser, type TestApp, uniqueLetters, uniqueName } from '../support/app';

jest.setTimeout(90_000);

const P = '/api/social';
const ADMIN = uniqueName('oversightadmin');

describe('integrity oversight and audit views', () => {
  let t: TestApp;
  let admin: SignedUpUser;
  let user: SignedUpUser;
  let other: SignedUpUser;
  let self: { node_id: string; public_key: string };
  const peer = NodeKey.generate();
  const cheat = NodeKey.generate();
  const stranger = NodeKey.generate();
  const registrant = NodeKey.generate();
  const EXPECTED = 'e'.repeat(64);

  beforeAll(async () => {
    t = await startTestApp({
      SVC_ADMIN_USERS: ADMIN,
      TRUSTED_NODE_KEYS: `peer-1=${peer.publicKeyHex},cheat-1=${cheat.publicKeyHex}`,
      INTEGRITY_REGISTRY: '1',
      INTEGRITY_ENFORCEMENT: 'hard',
      INTEGRITY_EXPECTED_HASHES: `9.9.9=${EXPECTED}`,
    });
    admin = await signUp(t, { username: ADMIN });
    user = await signUp(t, { prefix: 'auditee' });
    other = await signUp(t, { prefix: 'auditother' });
    self = (await t.request('GET', `${P}/integrity/public-key`)).body;
  });
  afterAll(() => t.close());

  const witness = (body: unknown) => t.request('POST', `${P}/integrity/witness-impression`, { body });
  const impression = (over: Record<string, unknown> = {}) => ({ node_id: 'peer-1', timestamp: Date.now(), impression_id: uniqueName('imp'), ad_id: 'ad-1', nonce: uniqueName('nonce-'), ...over });

  describe('witnessing an impression', () => {
    it('given a fresh impression signed by a registered node, then this node co-signs it and the co-signature verifies with its key', async () => {
      const fields = impression();
      const res = await witness(signImpressionWitnessRequest(peer, fields as never));

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, witnessed: true, witness_public_key: self.public_key });
      expect(verifyWitnessCoSignature(res.body, { ...fields, requester_node_id: 'peer-1' } as never, self.public_key, self.node_id)).toBe(true);
    });

    it('given the same nonce again, then no second witness', async () => {
      const body = signImpressionWitnessRequest(peer, impression() as never);
      expect((await witness(body)).body.witnessed).toBe(true);
      expect((await witness(body)).body).toEqual({ success: true, witnessed: false, reason: 'Nonce already witnessed' });
    });

    it('given a timestamp older than 60 s, then no witness', async () => {
      const res = await witness(signImpressionWitnessRequest(peer, impression({ timestamp: Date.now() - 61_000 }) as never));
      expect(res.body).toEqual({ success: true, witnessed: false, reason: 'Timestamp is older than 60 seconds' });
    });

    it('given a signature by a key other than the registered one, then no witness, even when it sends its own key along', async () => {
      const forged = signImpressionWitnessRequest(stranger, impression() as never);
      expect((await witness(forged)).body).toMatchObject({ witnessed: false, reason: 'public_key is not the key registered for node_id' });
      expect((await witness({ ...forged, public_key: undefined })).body).toMatchObject({ witnessed: false, reason: 'Invalid signature' });
    });

    it('given no signature, or a node nobody registered, then no witness; a missing impression id is a 400', async () => {
      const { signature: _s, public_key: _k, ...unsigned } = signImpressionWitnessRequest(peer, impression() as never);
      expect((await witness(unsigned)).body).toMatchObject({ witnessed: false, reason: 'Missing signature' });
      expect((await witness(signImpressionWitnessRequest(stranger, impression({ node_id: 'nobody-1' }) as never))).body).toMatchObject({ witnessed: false, reason: 'Unknown node' });
      expect((await witness({ ...impression(), impression_id: undefined })).status).toBe(400);
    });
  });

  describe('public reads', () => {
    it('given an unknown node, then peer-stats is 404 `Unknown node`; this node answers for itself', async () => {
      const unknown = await t.request('GET', `${P}/integrity/peer-stats?node_id=nobody-at-all`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('Unknown node');
      const mine = await t.request('GET', `${P}/integrity/peer-stats?node_id=${self.node_id}`);
      expect(mine.body).toMatchObject({ success: true, node_id: self.node_id, status: 'self' });
      expect((await t.request('GET', `${P}/integrity/peer-stats`)).status).toBe(400);
    });

    it('given the guardrail policy untouched, then its boot and live hashes agree', async () => {
      const res = await t.request('GET', `${P}/integrity/guardrail-hash`);
      expect(res.body).toMatchObject({ consistent: true, guardrail_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(res.body.guardrail_hash_live).toBe(res.body.guardrail_hash);
    });

    it('given the boot status and the dashboard, then they say how the node runs', async () => {
      expect((await t.request('GET', `${P}/integrity/boot-status`)).body).toMatchObject({ enforcement_mode: 'hard', registry_mode: true, runtime_healthy: true, hsm: false });
      expect((await t.request('GET', `${P}/integrity/dashboard`)).body.data).toMatchObject({ registry_mode: true, alerts: expect.any(Object) });
      expect((await t.request('GET', `${P}/integrity/audit-coverage`)).body.data.nodes).toEqual(expect.arrayContaining([expect.objectContaining({ node_id: self.node_id })]));
    });
  });

  describe('the registry', () => {
    const register = (body: Record<string, unknown>, key = registrant, nodeId = String(body.node_id)) =>
      t.request('POST', `${P}/integrity/register-node`, { rawBody: JSON.stringify(body), headers: signRequest(key, nodeId, { method: 'POST', path: `${P}/integrity/register-node`, body: JSON.stringify(body) }) });

    it('given a registration whose code hash is not the expected one, under hard enforcement, then 403 `Code hash mismatch`', async () => {
      const res = await register({ node_id: 'reg-1', public_key: registrant.publicKeyHex, code_hash: 'f'.repeat(64), version: '9.9.9' });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('Code hash mismatch');
    });

    it('given the expected hash, then the node is registered and its key listed as trusted', async () => {
      const res = await register({ node_id: 'reg-1', public_key: registrant.publicKeyHex, code_hash: EXPECTED, version: '9.9.9' });
      expect(res.body).toEqual({ success: true, registered: true, code_hash_matches: true });
      expect((await t.request('GET', `${P}/integrity/trusted-keys`)).body.keys['reg-1']).toBe(registrant.publicKeyHex);
      expect((await t.request('GET', `${P}/integrity/expected-hash?version=9.9.9`)).body).toEqual({ version: '9.9.9', code_hash: EXPECTED });
    });

    it('given a registration not signed by the key it registers, then 401', async () => {
      const res = await register({ node_id: 'reg-2', public_key: registrant.publicKeyHex }, stranger);
      expect(res.status).toBe(401);
    });
  });

  describe('alerts and audits', () => {
    /** An admin challenges `nodeId`; the node answers with a wrong nonce: a failed challenge. */
    async function failedChallenge(key: NodeKey, nodeId: string): Promise<string> {
      const issued = await t.request('POST', `${P}/integrity/challenges`, { token: admin.token, body: { target_node_id: nodeId, type: 'stats_probe' } });
      expect(issued.status).toBe(201);
      const response = { nonce: 'not-the-nonce', node_id: nodeId };
      const res = await sendSigned(key, nodeId, t.url, { method: 'POST', path: `${P}/integrity/challenge-response`, body: { challenge_id: issued.body.data.id, response, signature: key.sign(JSON.stringify(response)) } });
      expect(((await res.json()) as { passed: boolean }).passed).toBe(false);
      return issued.body.data.id;
    }

    it('given plain users, then the alert and audit routes are refused with 403; without a token 401', async () => {
      expect((await t.request('GET', `${P}/integrity/alerts`, { token: user.token })).status).toBe(403);
      expect((await t.request('POST', `${P}/integrity/node/peer-1/audit`, { token: user.token })).status).toBe(403);
      expect((await t.request('PATCH', `${P}/integrity/alerts/a1`, { token: user.token, body: {} })).status).toBe(403);
      expect((await t.request('GET', `${P}/integrity/alerts`)).status).toBe(401);
    });

    it('given a failed challenge, when audited, then an alert is raised, the score is 25, and a review marks it investigating', async () => {
      const challengeId = await failedChallenge(peer, 'peer-1');

      const audit = await t.request('POST', `${P}/integrity/node/peer-1/audit`, { token: admin.token });

      expect(audit.status).toBe(200);
      expect(audit.body.data).toMatchObject({ node_id: 'peer-1', fraud_score: 25, banned: false });
      expect(audit.body.data.alerts).toEqual([expect.objectContaining({ alert_type: 'challenge_failed', severity: 'high', fraud_score_delta: 25, status: 'open' })]);
      expect(audit.body.data.alerts[0].evidence.challenge_id).toBe(challengeId);
      const listed = await t.request('GET', `${P}/integrity/alerts?node_id=peer-1&status=open`, { token: admin.token });
      expect(listed.body.data.map((a: { id: string }) => a.id)).toContain(audit.body.data.alerts[0].id);
      const reviewed = await t.request('PATCH', `${P}/integrity/alerts/${audit.body.data.alerts[0].id}`, { token: admin.token, body: { status: 'investigating', reviewed_by: 'someone-else' } });
      expect(reviewed.body.data).toMatchObject({ status: 'investigating', reviewed_by: admin.id });
    });

    it('given the next round without new findings, then the score decays by 2', async () => {
      const audit = await t.request('POST', `${P}/integrity/node/peer-1/audit`, { token: admin.token });
      expect(audit.body.data).toMatchObject({ fraud_score_before: 25, decay: 2, fraud_score: 23, alerts: [] });
    });

    it('given concurrent audits of one failure, then its alert is raised once', async () => {
      await failedChallenge(peer, 'peer-1');
      const rounds = await Promise.all([1, 2, 3].map(() => t.request('POST', `${P}/integrity/node/peer-1/audit`, { token: admin.token })));
      expect(rounds.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(rounds.flatMap((r) => r.body.data.alerts)).toHaveLength(1);
    });

    it('given four failed challenges, when audited, then the score reaches 100, the node is banned and its signed requests refused', async () => {
      for (let i = 0; i < 4; i++) await failedChallenge(cheat, 'cheat-1');
      const audit = await t.request('POST', `${P}/integrity/node/cheat-1/audit`, { token: admin.token });
      expect(audit.body.data).toMatchObject({ fraud_score: 100, banned: true });
      expect((await t.request('GET', `${P}/integrity/ban-list`)).body.banned_node_ids).toContain('cheat-1');
      const refused = await sendSigned(cheat, 'cheat-1', t.url, { method: 'POST', path: `${P}/integrity/challenge`, body: { type: 'stats_probe', nonce: 'after-the-ban' } });
      expect(refused.status).toBe(403);
      const noWitness = await witness(signImpressionWitnessRequest(cheat, impression({ node_id: 'cheat-1' }) as never));
      expect(noWitness.body).toMatchObject({ witnessed: false, reason: 'Requester is banned' });
    });

    it('given a node this node has no record of, when audited, then 404; an unknown alert is 404 too', async () => {
      expect((await t.request('POST', `${P}/integrity/node/ghost-node/audit`, { token: admin.token })).status).toBe(404);
      expect((await t.request('PATCH', `${P}/integrity/alerts/nope`, { token: admin.token, body: {} })).status).toBe(404);
      expect((await t.request('GET', `${P}/integrity/alerts?severity=apocalyptic`, { token: admin.token })).status).toBe(400);
    });
  });

  describe('the audit views', () => {
    let agentId: string;

    beforeAll(async () => {
      const res = await t.request('POST', `${P}/users/${user.id}/agents`, { token: user.token, body: { name: `${uniqueLetters('calm')}.amber.${uniqueLetters('owl')}`, description: 'audits <b>well</b>' } });
      expect(res.status).toBe(201);
      agentId = res.body.data.id;
    });

    it('given a user with an agent, then the user sees it, another user does not, an admin does', async () => {
      const mine = await t.request('GET', `${P}/audit/agents`, { token: user.token });
      expect(mine.body.data).toEqual([expect.objectContaining({ id: agentId, type: 'local', description: 'audits &lt;b&gt;well&lt;/b&gt;' })]);
      expect((await t.request('GET', `${P}/audit/agents`, { token: other.token })).body.data).toEqual([]);
      expect((await t.request('GET', `${P}/audit/agents?type=all`, { token: admin.token })).body.data.map((a: { id: string }) => a.id)).toContain(agentId);
      expect((await t.request('GET', `${P}/audit/agents?type=robots`, { token: user.token })).status).toBe(400);
    });

    it('given the agent, then its owner reads its timeline and another user gets 404', async () => {
      const timeline = await t.request('GET', `${P}/audit/agents/${agentId}/timeline?limit=5`, { token: user.token });
      expect(timeline.status).toBe(200);
      expect(Array.isArray(timeline.body.data)).toBe(true);
      for (const view of ['timeline', 'conversations', 'thinking']) {
        expect((await t.request('GET', `${P}/audit/agents/${agentId}/${view}`, { token: other.token })).status).toBe(404);
      }
      expect((await t.request('GET', `${P}/audit/agents/${agentId}/timeline?limit=abc`, { token: user.token })).status).toBe(400);
    });

    it('given a plain user, then no compute nodes and only their own usage; an admin sees the nodes and the routing', async () => {
      expect((await t.request('GET', `${P}/audit/compute/nodes`, { token: user.token })).body.data).toEqual([]);
      expect((await t.request('GET', `${P}/audit/compute/usage?days=3`, { token: user.token })).body.data).toEqual([]);
      expect((await t.request('GET', `${P}/audit/compute/usage?days=x`, { token: user.token })).status).toBe(400);
      const routing = await t.request('GET', `${P}/audit/compute/routing`, { token: admin.token });
      expect(routing.body.data).toMatchObject({ llm_backend: 'offline', local_llm_available: true });
      expect((await t.request('GET', `${P}/audit/daemon/goals?status=all`, { token: user.token })).body.data).toEqual([]);
      expect((await t.request('GET', `${P}/audit/daemon/activity`, { token: user.token })).status).toBe(200);
      expect((await t.request('GET', `${P}/audit/agents`)).status).toBe(401);
    });
  });
});

describe('a node that is not a registry', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  it.each(['expected-hash', 'trusted-keys'])('given GET /integrity/%s, then 403 `Not a registry node`', async (route) => {
    const res = await t.request('GET', `${P}/integrity/${route}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Not a registry node');
  });
});
