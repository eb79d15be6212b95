/**
 * Bots and the agents context's admin routes over HTTP (social-routes §3,
 * §12): bot registration (idempotent per bot, racing registrations end in one
 * account), tools and skill files, activity reports recorded as events,
 * gateway discovery, revenue analytics, growth counters and agent sync.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { signUp, startTestApp, type TestApp, uniqueName } from '../support/app';

jest.setTimeout(60_000);

const ADMIN = 'botsadmin';
const P = '/api/social';
const word = () => uniqueName('').replace(/[^a-z]/g, '').slice(-6).padEnd(2, 'q');

describe('bots and agents admin', () => {
  let t: TestApp;
  let gateway: Server;
  let gatewayUrl: string;
  let user: { id: string; token: string };
  let admin: { id: string; token: string };

  beforeAll(async () => {
    gateway = createServer((req, res) => {
      if (req.url === '/.well-known/agent.json') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ name: 'Remote Helper', description: 'helps remotely', url: 'http://remote.example/a2a', version: '1.0.0', skills: [] }));
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN, A2A_PROBE_ALLOW_PRIVATE: 'true' });
    user = await signUp(t, { prefix: 'botuser' });
    admin = await signUp(t, { username: ADMIN });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => gateway.close(resolve));
  });

  describe('bot registration', () => {
    it('given a valid 3-word bot name, then 201 with that username, an api_token that works, and the endpoints', async () => {
      const name = `tidy.${word()}.scout`;
      const res = await t.request('POST', `${P}/bots/register`, { body: { bot_id: `b-${name}`, bot_name: name, platform: 'a2a', capabilities: ['search'] } });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ username: name, platform: 'a2a', existing: false, endpoints: { webhook: '/api/social/bots/webhook' } });
      expect((await t.request('POST', `${P}/agent/observe`, { token: res.body.data.api_token, body: { event: 'hello' } })).status).toBe(200);
      const again = await t.request('POST', `${P}/bots/register`, { body: { bot_id: `b-${name}`, bot_name: name, platform: 'a2a' } });
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({ user_id: res.body.data.user_id, username: name, api_token: null, existing: true });
    });

    it('given a name that is not 3 words, then a fresh valid name is generated', async () => {
      const res = await t.request('POST', `${P}/bots/register`, { body: { bot_id: `free-${word()}`, bot_name: 'My Bot' } });
      expect(res.status).toBe(201);
      expect(res.body.data.username).toMatch(/^[a-z]{2,15}\.[a-z]{2,15}\.[a-z]{2,15}$/);
      expect(res.body.data.platform).toBe('generic');
    });

    it('given another bot’s name, then 400 `Bot name already taken`; an unknown platform, then 400', async () => {
      const name = `warm.${word()}.pilot`;
      expect((await t.request('POST', `${P}/bots/register`, { body: { bot_id: 'one', bot_name: name } })).status).toBe(201);
      const taken = await t.request('POST', `${P}/bots/register`, { body: { bot_id: 'two', bot_name: name } });
      expect(taken.status).toBe(400);
      expect(taken.body.error).toBe('Bot name already taken');
      expect((await t.request('POST', `${P}/bots/register`, { body: { bot_id: 'x', bot_name: name, platform: 'myspace' } })).status).toBe(400);
      expect((await t.request('POST', `${P}/bots/register`, { body: { bot_name: name } })).status).toBe(400);
    });

    it('given three concurrent registrations of one bot, then one account: one 201 and two repeats', async () => {
      const name = `kind.${word()}.maker`;
      const results = await Promise.all([1, 2, 3].map(() => t.request('POST', `${P}/bots/register`, { body: { bot_id: `race-${name}`, bot_name: name } })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201]);
      expect(new Set(results.map((r) => r.body.data.user_id)).size).toBe(1);
    });

    it('given the tools and a framework, then the tools list the four actions and the skill file is YAML; an unknown framework is 404', async () => {
      const tools = await t.request('GET', `${P}/bots/tools`);
      expect(tools.body.data.map((tool: { name: string }) => tool.name)).toEqual(['post', 'comment', 'vote', 'follow']);
      const skill = await t.request('GET', `${P}/bots/langchain-skill`);
      expect(skill.status).toBe(200);
      expect(skill.headers.get('content-type')).toMatch(/^text\/yaml/);
      expect(skill.body).toContain('framework: langchain');
      expect((await t.request('GET', `/social/bots/nothing-skill`)).status).toBe(404);
    });
  });

  describe('webhook', () => {
    let bot: { token: string; id: string };
    const hook = (actions: unknown) => t.request('POST', `${P}/bots/webhook`, { token: bot.token, body: { actions } });

    beforeAll(async () => {
      const res = await t.request('POST', `${P}/bots/register`, { body: { bot_id: `hook-${word()}`, bot_name: `swift.${word()}.writer` } });
      bot = { token: res.body.data.api_token, id: res.body.data.user_id };
    });

    it('given post, comment and vote actions, then each runs as its route would, in order, and the post is the bot’s', async () => {
      const posted = await hook([{ type: 'post', title: 'Hello from a bot', content: 'hi', message_id: 'm-1' }]);
      expect(posted.status).toBe(200);
      expect(posted.body.data).toEqual([{ action: 'post', status: 'ok', id: expect.any(String) }]);
      const postId = posted.body.data[0].id;
      const post = await t.request('GET', `${P}/posts/${postId}`);
      expect(post.body.data).toMatchObject({ author_id: bot.id, title: 'Hello from a bot', source_channel: 'bot_webhook' });
      const more = await hook([
        { type: 'comment', post_id: postId, content: 'first!' },
        { type: 'vote', target_type: 'post', target_id: postId, value: 1 },
        { type: 'dance' },
        { type: 'comment', content: 'no post' },
        { type: 'follow', user_id: user.id },
        { type: 'follow', user_id: 'nobody-here' },
      ]);
      expect(more.body.data).toEqual([
        { action: 'comment', status: 'ok', id: expect.any(String) },
        { action: 'vote', status: 'ok', id: postId, score: 1 },
        { action: 'dance', status: 'error', error: 'Unknown action type: dance' },
        { action: 'comment', status: 'error', error: 'post_id is required' },
        { action: 'follow', status: 'ok', id: user.id },
        { action: 'follow', status: 'error', error: 'User not found' },
      ]);
      const followers = await t.request('GET', `${P}/users/${user.id}/followers`);
      expect(followers.body.data.map((u: { id: string }) => u.id)).toEqual([bot.id]);
    });

    it('given one message id delivered again and concurrently, then one post: the repeats answer duplicate with its id', async () => {
      const message = { type: 'post', title: 'Once', message_id: 'm-race' };
      const results = await Promise.all([1, 2, 3].map(() => hook([message])));
      const entries = results.map((r) => r.body.data[0]);
      expect(entries.filter((e) => e.status === 'ok')).toHaveLength(1);
      expect(entries.filter((e) => e.status === 'duplicate')).toHaveLength(2);
      const again = await hook([message]);
      expect(again.body.data[0]).toEqual({ action: 'post', status: 'duplicate', id: entries.find((e) => e.status === 'ok')!.id });
    });

    it('given no actions, too many, or no credential, then 400, 400 and 401', async () => {
      expect((await hook([])).status).toBe(400);
      expect((await hook(Array.from({ length: 51 }, () => ({ type: 'vote' })))).status).toBe(400);
      expect((await t.request('POST', `${P}/bots/webhook`, { body: { actions: [{ type: 'vote' }] } })).status).toBe(401);
    });
  });

  describe('activity reports', () => {
    it('given a signed-in caller, then observe and dispatch answer raw success and are recorded as events', async () => {
      const observed = await t.request('POST', `${P}/agent/observe`, { token: user.token, body: { event: 'click', page: '/feed', duration_ms: 12, extra: { a: 1 } } });
      expect(observed.status).toBe(200);
      expect(observed.body).toEqual({ success: true });
      const dispatched = await t.request('POST', `${P}/agent/dispatch`, { token: user.token, body: { agent: 'calm.amber.owl', action: 'run', mode: 'fast' } });
      expect(dispatched.body).toEqual({ success: true });
      const events = await t.app.get<EventStore>(EVENT_STORE).readStream(`agentActivity-${user.id}`);
      expect(events.map((e) => [e.type, e.data])).toEqual([
        ['AgentObserved', expect.objectContaining({ user_id: user.id, event: 'click', page: '/feed', outcome: null, duration_ms: 12 })],
        ['AgentDispatched', expect.objectContaining({ agent: 'calm.amber.owl', action: 'run', mode: 'fast' })],
      ]);
      expect((await t.request('POST', `${P}/agent/observe`, { body: {} })).status).toBe(401);
    });
  });

  describe('admin', () => {
    it('given a gateway serving an agent card, when an admin discovers it, then the agent is registered once', async () => {
      const res = await t.request('POST', `${P}/bots/discover-external`, { token: admin.token, body: { gateway_url: gatewayUrl } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ discovered: 1, registered: 1, agents: [{ name: 'Remote Helper', url: 'http://remote.example/a2a' }] });
      const again = await t.request('POST', `${P}/bots/discover-external`, { token: admin.token, body: { gateway_url: gatewayUrl } });
      expect(again.body.data).toMatchObject({ discovered: 1, registered: 0 });
      expect((await t.request('POST', `${P}/bots/discover-external`, { token: user.token, body: { gateway_url: gatewayUrl } })).status).toBe(403);
    });

    it('given agents, then growth stats count users and agents; plain users are refused', async () => {
      const res = await t.request('GET', `${P}/growth/stats`, { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.body.data.total_agents).toBeGreaterThanOrEqual(4);
      expect(res.body.data.total_users).toBeGreaterThan(res.body.data.total_agents);
      expect((await t.request('GET', `${P}/growth/stats`, { token: user.token })).status).toBe(403);
    });

    it('given an owner with agents, then revenue analytics lists the ownership and counts active agents; days is capped and checked', async () => {
      await t.request('POST', `${P}/users/${user.id}/agents`, { token: user.token, body: { name: `lucid.${word()}.tutor` } });
      const res = await t.request('GET', `${P}/admin/revenue-analytics?days=1000`, { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.body.data.overview.active_agents).toBeGreaterThanOrEqual(5);
      expect(res.body.data.ownership).toEqual([expect.objectContaining({ owner_id: user.id, agents: 1 })]);
      expect(res.body.data.time_series).toEqual({ revenue_daily: [], compute_daily: [] });
      expect((await t.request('GET', `${P}/admin/revenue-analytics?days=abc`, { token: admin.token })).status).toBe(400);
    });

    it('given an agent saved through /chat, when an admin syncs, then it becomes its owner’s agent user once, whichever route name', async () => {
      const before = (await t.request('GET', `${P}/users/${user.id}/agents`)).body.data.length;
      const chat = await t.request('POST', '/chat', { token: user.token, body: { prompt_id: 'sync-me', prompt: '1. what is 3 * 3\n2. reverse "abc"', autonomous: true } });
      expect(chat.body).toMatchObject({ recipe_saved: true });
      const first = await t.request('POST', `${P}/admin/sync-agents`, { token: admin.token });
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ synced: 1 });
      const again = await t.request('POST', `${P}/admin/agents/sync`, { token: admin.token });
      expect(again.body.data).toEqual({ synced: 0 });
      const agents = (await t.request('GET', `${P}/users/${user.id}/agents`)).body.data;
      expect(agents).toHaveLength(before + 1);
      expect(agents.some((a: { platform: string; user_type: string }) => a.platform === 'a2a' && a.user_type === 'agent')).toBe(true);
    });
  });
});
