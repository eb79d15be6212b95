/**
 * Agents over HTTP (social-routes §3): naming, agents owned by humans, their
 * credential, discovery and marketplace, evolution, specialisation and
 * collaborations; the race of two creations of one name.
 */
import { READ_STORE, type ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { settled, signUp, startTestApp, type TestApp, uniqueLetters } from '../support/app';

jest.setTimeout(60_000);

const ADMIN = 'agentsadmin';
const P = '/api/social';

describe('agents', () => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  let admin: { id: string; token: string };

  /** The owner's handle, set through its route (PATCH /users/{id}/handle). */
  async function setHandle(user: { id: string; token: string }, handle: string): Promise<void> {
    expect((await t.request('PATCH', `${P}/users/${user.id}/handle`, { token: user.token, body: { handle } })).status).toBe(200);
  }

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN });
    owner = await signUp(t, { prefix: 'owner' });
    other = await signUp(t, { prefix: 'other' });
    admin = await signUp(t, { username: ADMIN });
  });
  afterAll(() => t.close());

  describe('naming', () => {
    it('given no parameters, when names are suggested, then five valid global names not taken come back', async () => {
      const res = await t.request('GET', `${P}/agents/suggest-names`);
      expect(res.status).toBe(200);
      expect(res.body.data.count).toBe(5);
      expect(res.body.data.mode).toBe('global');
      for (const name of res.body.data.suggestions) expect(name).toMatch(/^[a-z]{2,15}\.[a-z]{2,15}\.[a-z]{2,15}$/);
    });

    it('given mode local and a handle, then the suggestions are 2-word names with their global preview; count is capped at 20', async () => {
      const res = await t.request('GET', `${P}/agents/suggest-names?mode=local&handle=alice&count=50`);
      expect(res.status).toBe(200);
      expect(res.body.data.suggestions.length).toBeLessThanOrEqual(20);
      expect(res.body.data.suggestions.length).toBeGreaterThan(5);
      expect(res.body.data.global_preview).toEqual(res.body.data.suggestions.map((n: string) => `${n}.alice`));
    });

    it('given a bad count or mode, then 400', async () => {
      expect((await t.request('GET', `${P}/agents/suggest-names?count=abc`)).status).toBe(400);
      expect((await t.request('GET', `${P}/agents/suggest-names?mode=galactic`)).status).toBe(400);
    });

    it('given names good and bad, when validated, then the answer is always 200 with valid and the error', async () => {
      const good = await t.request('POST', `${P}/agents/validate-name`, { body: { name: 'Swift.Amber.Falcon' } });
      expect(good.status).toBe(200);
      expect(good.body.data).toEqual({ valid: true, error: null, name: 'swift.amber.falcon', global_name: 'swift.amber.falcon' });
      const reserved = await t.request('POST', `${P}/agents/validate-name`, { body: { name: 'swift.admin.falcon' } });
      expect(reserved.status).toBe(200);
      expect(reserved.body.data.valid).toBe(false);
      expect(reserved.body.data.error).toMatch(/reserved/);
      const local = await t.request('POST', `${P}/agents/validate-name`, { body: { name: 'swift.falcon', mode: 'local', handle: 'bob' } });
      expect(local.body.data).toMatchObject({ valid: true, global_name: 'swift.falcon.bob' });
      const noHandle = await t.request('POST', `${P}/agents/validate-name`, { body: { name: 'swift.falcon', mode: 'local' } });
      expect(noHandle.body.data.valid).toBe(false);
      const missing = await t.request('POST', `${P}/agents/validate-name`, { body: {} });
      expect(missing.status).toBe(200);
      expect(missing.body.data.valid).toBe(false);
    });
  });

  describe('agents owned by humans', () => {
    let agent: { id: string; username: string; api_token: string };

    it('given a global name, when the owner creates an agent, then 201 with the agent user, its skills and an api_token that authenticates', async () => {
      const name = `${uniqueLetters('calm')}.amber.${uniqueLetters('owl')}`;
      const res = await t.request('POST', `${P}/users/${owner.id}/agents`, {
        token: owner.token,
        body: { name, description: 'I <b>summarise</b>', skills: ['summarise', 'translate'], personality: 'terse' },
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ username: name, user_type: 'agent', role: 'agent', skills: ['summarise', 'translate'], platform: 'generic' });
      expect(res.body.data.bio).toBe('I &lt;b&gt;summarise&lt;/b&gt;');
      expect(res.body.data.api_token).toMatch(/^at_/);
      agent = res.body.data;
      const asAgent = await t.request('POST', `${P}/tasks`, { token: agent.api_token, body: { post_id: 'p1', task_description: 'from the agent' } });
      expect(asAgent.status).toBe(201);
      expect(asAgent.body.data.requester_id).toBe(agent.id);
    });

    it('given the agent, then the owner’s agents list, discovery and the marketplace show it', async () => {
      const mine = await t.request('GET', `${P}/users/${owner.id}/agents`);
      expect(mine.status).toBe(200);
      expect(mine.body.data.map((a: { id: string }) => a.id)).toEqual([agent.id]);
      const discovery = await t.request('GET', `/social/discovery/agents?limit=100`);
      expect(discovery.status).toBe(200);
      expect(discovery.body.meta).toMatchObject({ offset: 0, limit: 100 });
      expect(discovery.body.data.some((a: { id: string; skills: string[] }) => a.id === agent.id && a.skills.length === 2)).toBe(true);
      const market = await t.request('GET', `${P}/marketplace/agents?limit=50`);
      expect(market.body.data.some((a: { id: string }) => a.id === agent.id)).toBe(true);
      expect(market.body.meta).toBeUndefined();
    });

    it('given another user, when they create an agent for the owner, then 403 `Can only create agents for yourself`', async () => {
      const res = await t.request('POST', `${P}/users/${owner.id}/agents`, { token: other.token, body: { name: 'brave.cedar.scout' } });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('Can only create agents for yourself');
    });

    it('given no name, a bad name or a local name without a handle, then 400', async () => {
      const none = await t.request('POST', `${P}/users/${owner.id}/agents`, { token: owner.token, body: {} });
      expect(none.status).toBe(400);
      const bad = await t.request('POST', `${P}/users/${owner.id}/agents`, { token: owner.token, body: { name: 'two.words' } });
      expect(bad.status).toBe(400);
      const local = await t.request('POST', `${P}/users/${owner.id}/agents`, { token: owner.token, body: { local_name: 'swift.falcon' } });
      expect(local.status).toBe(400);
      expect(local.body.error).toMatch(/handle/);
    });

    it('given the owner’s handle, when two creations of one local name race, then exactly one agent is created and the other gets 400', async () => {
      const handle = uniqueLetters('h');
      await setHandle(owner, handle);
      const body = { local_name: 'quick.heron', description: 'racer' };
      const results = await Promise.all([1, 2, 3].map(() => t.request('POST', `${P}/users/${owner.id}/agents`, { token: owner.token, body })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 400, 400]);
      const created = results.find((r) => r.status === 201)!.body.data;
      expect(created).toMatchObject({ username: `quick.heron.${handle}`, local_name: 'quick.heron' });
      for (const refused of results.filter((r) => r.status === 400)) expect(refused.body.error).toBe('Agent name already taken');
      await settled(t);
      const mine = await t.request('GET', `${P}/users/${owner.id}/agents`);
      expect(mine.body.data.filter((a: { username: string }) => a.username === `quick.heron.${handle}`)).toHaveLength(1);
    });

    it('given an admin, when they create an agent for someone else, then it is created for that owner', async () => {
      const name = `${uniqueLetters('bold')}.fern.${uniqueLetters('guide')}`;
      const res = await t.request('POST', `${P}/users/${other.id}/agents`, { token: admin.token, body: { name } });
      expect(res.status).toBe(201);
      expect((await t.request('GET', `${P}/users/${other.id}/agents`)).body.data.map((a: { username: string }) => a.username)).toEqual([name]);
    });

    it('given an unknown user, then their agents list is 404', async () => {
      expect((await t.request('GET', `${P}/users/nobody-here/agents`)).status).toBe(404);
    });

    it('given a new agent, then its evolution is generation 1 with no history, and it cannot specialise yet', async () => {
      const evo = await t.request('GET', `${P}/agents/${agent.id}/evolution`);
      expect(evo.status).toBe(200);
      expect(evo.body.data).toMatchObject({ agent_id: agent.id, generation: 1, xp: 0, specialization: null });
      expect((await t.request('GET', `${P}/agents/${agent.id}/evolution-history`)).body.data).toEqual([]);
      const spec = await t.request('POST', `${P}/agents/${agent.id}/specialize`, { token: owner.token, body: { path: 'analyst' } });
      expect(spec.status).toBe(400);
      expect(spec.body.error).toMatch(/generation 3/);
      expect((await t.request('GET', `${P}/agents/nope/evolution`)).status).toBe(404);
    });

    it('given fixed trees, then the specialisation trees list the four paths', async () => {
      const res = await t.request('GET', `${P}/agents/specialization-trees`);
      expect(Object.keys(res.body.data).sort()).toEqual(['analyst', 'communicator', 'creator', 'executor']);
    });

    it('given four completed tasks, then the agent reaches generation 3, specialises once, and tops the leaderboard and showcase', async () => {
      for (let i = 0; i < 4; i++) {
        const task = await t.request('POST', `${P}/tasks`, { token: owner.token, body: { post_id: `p${i}`, task_description: `job ${i}` } });
        expect((await t.request('POST', `${P}/tasks/${task.body.data.id}/assign`, { token: owner.token, body: { assignee_id: agent.id } })).status).toBe(200);
        expect((await t.request('POST', `${P}/tasks/${task.body.data.id}/complete`, { token: owner.token, body: { result: 'done' } })).status).toBe(200);
      }
      await settled(t);
      const evo = await t.request('GET', `${P}/agents/${agent.id}/evolution`);
      expect(evo.body.data).toMatchObject({ generation: 3, xp: 200, completed_tasks: 4 });
      const history = (await t.request('GET', `${P}/agents/${agent.id}/evolution-history`)).body.data;
      expect(history.map((h: { total_xp: number }) => h.total_xp)).toEqual([50, 100, 150, 200]);
      const notOwner = await t.request('POST', `${P}/agents/${agent.id}/specialize`, { token: other.token, body: { path: 'analyst' } });
      expect(notOwner.status).toBe(403);
      const spec = await t.request('POST', `${P}/agents/${agent.id}/specialize`, { token: owner.token, body: { path: 'analyst' } });
      expect(spec.status).toBe(200);
      expect(spec.body.data).toMatchObject({ specialization: 'data_analyst', spec_tier: 1, tree_name: 'analyst' });
      const again = await t.request('POST', `${P}/agents/${agent.id}/specialize`, { token: owner.token, body: { path: 'creator' } });
      expect(again.status).toBe(409);
      const board = await t.request('GET', `${P}/agents/leaderboard?limit=5`);
      expect(board.body.data[0]).toMatchObject({ rank: 1, agent_id: agent.id, xp: 200 });
      const showcase = await t.request('GET', `${P}/agents/showcase`);
      expect(showcase.body.data[0]).toMatchObject({ id: agent.id, specialization: 'data_analyst' });
    });

    it('given two agents, when the owner records a collaboration, then it is listed and earns XP; another user is refused', async () => {
      const partner = (await t.request('GET', `${P}/users/${other.id}/agents`)).body.data[0];
      const refused = await t.request('POST', `${P}/agents/${agent.id}/collaborate`, { token: other.token, body: { other_agent_id: partner.id } });
      expect(refused.status).toBe(403);
      const res = await t.request('POST', `${P}/agents/${agent.id}/collaborate`, { token: owner.token, body: { other_agent_id: partner.id, quality_score: 0.9 } });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ agent_id: agent.id, other_agent_id: partner.id, collaboration_type: 'co_task', quality_score: 0.9, task_id: null });
      const list = await t.request('GET', `${P}/agents/${agent.id}/collaborations`);
      expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([res.body.data.id]);
      expect((await t.request('GET', `${P}/agents/${agent.id}/evolution`)).body.data.xp).toBe(210);
      const unknown = await t.request('POST', `${P}/agents/${agent.id}/collaborate`, { token: owner.token, body: { other_agent_id: 'nope' } });
      expect(unknown.status).toBe(404);
    });
  });
});
