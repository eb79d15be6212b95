/**
 * Every route acts only for its caller, and abuse is bounded
 * (docs/security.md): the identity model of the agent pipeline, the login
 * lockout and the token buckets, seen from outside as a client would.
 *
 * A caller on another machine is simulated with Fastify's inject and a
 * remote address outside loopback; real sockets come from 127.0.0.1.
 */
import { signUp, type SignedUpUser, startTestApp, type TestApp, uniqueName } from '../support/app';

jest.setTimeout(60_000);

const REMOTE = '203.0.113.7';

/** A request from another machine (not loopback). */
async function fromRemote(t: TestApp, method: 'GET' | 'POST', url: string, payload?: unknown, token?: string) {
  const res = await t.app.inject({
    method,
    url,
    remoteAddress: REMOTE,
    headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

const future = () => new Date(Date.now() + 3_600_000).toISOString();
const PIPELINE_BODIES: Record<string, (userId: string) => Record<string, unknown>> = {
  '/chat': (userId) => ({ user_id: userId, prompt_id: 'p1', prompt: 'what is 2 + 2' }),
  '/visual_agent': (userId) => ({ user_id: userId, prompt_id: 'p1', prompt: 'what is this', image_url: 'https://example.com/a.png' }),
  '/add_history': (userId) => ({ user_id: userId, prompt_id: 'p1', history: [{ role: 'user', content: 'hello' }] }),
  '/time_agent': (userId) => ({ user_id: userId, prompt_id: 'p1', prompt: 'what is 2 + 2', schedule_time: future() }),
  '/goals': (userId) => ({ user_id: userId, goal: 'what is 2 + 2' }),
};
const PIPELINE_ROUTES = Object.keys(PIPELINE_BODIES);

describe('the identity model of the agent pipeline', () => {
  let t: TestApp;
  let ann: SignedUpUser;
  let bob: SignedUpUser;
  beforeAll(async () => {
    t = await startTestApp();
    ann = await signUp(t, { prefix: 'sec' });
    bob = await signUp(t, { prefix: 'sec' });
  });
  afterAll(() => t.close());

  it.each(PIPELINE_ROUTES)('given a caller on another machine without a credential, when posting to %s, then 401', async (route) => {
    const res = await fromRemote(t, 'POST', route, PIPELINE_BODIES[route]('free-name'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: 'unauthenticated' });
  });

  it.each(PIPELINE_ROUTES)('given the local guest, when posting to %s for a registered user, then 401 and nothing is done', async (route) => {
    const res = await t.request('POST', route, { body: PIPELINE_BODIES[route](ann.id) });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/sign in/);
  });

  it.each(PIPELINE_ROUTES)('given a signed-in user, when posting to %s for another user, then 403', async (route) => {
    const res = await t.request('POST', route, { token: bob.token, body: PIPELINE_BODIES[route](ann.id) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, error: 'user_id must be the authenticated user' });
  });

  it.each(PIPELINE_ROUTES)('given a garbage credential, when posting to %s, then 401 whatever the address', async (route) => {
    expect((await t.request('POST', route, { token: 'garbage', body: PIPELINE_BODIES[route]('free-name') })).status).toBe(401);
    expect((await fromRemote(t, 'POST', route, PIPELINE_BODIES[route]('free-name'), 'garbage')).status).toBe(401);
  });

  it('given a signed-in user on another machine, when scheduling without user_id, then it is scheduled for that user', async () => {
    const { user_id: _omitted, ...body } = PIPELINE_BODIES['/time_agent'](ann.id);
    const res = await fromRemote(t, 'POST', '/time_agent', body, ann.token);
    expect(res.status).toBe(202);
    expect(res.body.data.user_id).toBe(ann.id);
  });

  it('given the local guest, when posting without user_id, then 400 names the field', async () => {
    const { user_id: _omitted, ...body } = PIPELINE_BODIES['/chat']('x');
    const res = await t.request('POST', '/chat', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/user_id/);
  });

  it('given the local guest, when chatting under a name no account holds, then it is served', async () => {
    const res = await t.request('POST', '/chat', { body: PIPELINE_BODIES['/chat'](uniqueName('local')) });
    expect(res.status).toBe(200);
    expect(typeof res.body.response).toBe('string');
  });

  it("given Ann's scheduled prompt, when Bob, the local guest or Ann reads it, then only Ann sees it", async () => {
    const scheduled = await t.request('POST', '/time_agent', { token: ann.token, body: PIPELINE_BODIES['/time_agent'](ann.id) });
    const path = `/time_agent/${scheduled.body.data.schedule_id}`;
    expect((await t.request('GET', path, { token: bob.token })).status).toBe(404);
    expect((await t.request('GET', path)).status).toBe(404);
    expect((await t.request('GET', path, { token: ann.token })).status).toBe(200);
  });

  it("given Ann's goal, when Bob or someone on another machine reads it, then it does not exist for them", async () => {
    const accepted = await t.request('POST', '/goals', { token: ann.token, body: { goal: 'what is 3 + 4' } });
    expect(accepted.status).toBe(202);
    const path = `/goals/${accepted.body.data.goal_id}`;
    expect((await t.request('GET', path, { token: bob.token })).status).toBe(404);
    expect((await fromRemote(t, 'GET', path)).status).toBe(401);
    expect((await t.request('GET', path, { token: ann.token })).status).toBe(200);
  });
});

describe('a node with ANONYMOUS_CHAT=off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ANONYMOUS_CHAT: 'off' });
  });
  afterAll(() => t.close());

  it('given a local caller without a credential, when chatting, then 401', async () => {
    const res = await t.request('POST', '/chat', { body: PIPELINE_BODIES['/chat']('free-name') });
    expect(res.status).toBe(401);
  });

  it('given a signed-in user, when chatting without user_id, then it is served', async () => {
    const ann = await signUp(t, { prefix: 'sec' });
    const { user_id: _omitted, ...body } = PIPELINE_BODIES['/chat']('x');
    expect((await t.request('POST', '/chat', { token: ann.token, body })).status).toBe(200);
  });
});

describe('login lockout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const login = (username: string, password: string) => t.request('POST', '/api/social/login', { body: { username, password } });

  it('given five wrong passwords, when the right one is given, then it is refused exactly as a wrong one', async () => {
    const ann = await signUp(t, { prefix: 'sec' });
    const wrong = await login(ann.username, 'wrong password 0');
    for (let i = 1; i < 5; i++) expect((await login(ann.username, `wrong password ${i}`)).status).toBe(401);
    const locked = await login(ann.username, 'correct horse battery');
    expect(locked.status).toBe(wrong.status);
    expect(locked.body).toEqual(wrong.body);
  });

  it('given four wrong passwords, when the right one is given, then the login succeeds', async () => {
    const bob = await signUp(t, { prefix: 'sec' });
    for (let i = 0; i < 4; i++) await login(bob.username, `wrong password ${i}`);
    expect((await login(bob.username, 'correct horse battery')).status).toBe(200);
  });

  it("given a locked username, when another user logs in, then that user is not affected", async () => {
    const carl = await signUp(t, { prefix: 'sec' });
    const dora = await signUp(t, { prefix: 'sec' });
    for (let i = 0; i < 5; i++) await login(carl.username, `wrong password ${i}`);
    expect((await login(dora.username, 'correct horse battery')).status).toBe(200);
  });

  it('given concurrent wrong passwords, when the right one follows, then the lock holds (no failure is lost)', async () => {
    const erin = await signUp(t, { prefix: 'sec' });
    await Promise.all(Array.from({ length: 5 }, (_, i) => login(erin.username, `wrong password ${i}`)));
    expect((await login(erin.username, 'correct horse battery')).status).toBe(401);
  });
});

describe('token buckets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      SOCIAL_RATE_LIMIT_DISABLED: '',
      RATE_LIMIT_AUTH: '3/1m',
      RATE_LIMIT_REGISTER: '2/1h',
      RATE_LIMIT_RECOVERY: '4/1m',
      RATE_LIMIT_GLOBAL: '2/1m',
    });
  });
  afterAll(() => t.close());

  it('given the auth bucket is empty for an address, when logging in again, then 429 with Retry-After and the bucket named', async () => {
    for (let i = 0; i < 3; i++) await fromRemote(t, 'POST', '/api/social/login', { username: 'nobody', password: 'x' });
    const res = await fromRemote(t, 'POST', '/api/social/login', { username: 'nobody', password: 'x' });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ success: false, error: 'Rate limit exceeded for auth. Try again later.' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('given the register bucket is empty for an address, when a guest registers, then 429; another address still may', async () => {
    const guest = { guest_name: 'visitor' };
    const first = await t.app.inject({ method: 'POST', url: '/api/social/auth/guest-register', remoteAddress: '198.51.100.1', payload: guest });
    const second = await t.app.inject({ method: 'POST', url: '/api/social/auth/guest-register', remoteAddress: '198.51.100.1', payload: guest });
    const third = await t.app.inject({ method: 'POST', url: '/api/social/auth/guest-register', remoteAddress: '198.51.100.1', payload: guest });
    expect([first.statusCode, second.statusCode, third.statusCode]).toEqual([201, 201, 429]);
    expect(third.json().error).toBe('Rate limit exceeded for register. Try again later.');
    const elsewhere = await t.app.inject({ method: 'POST', url: '/api/social/auth/guest-register', remoteAddress: '198.51.100.2', payload: guest });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('given recovery guesses from many addresses, when they exceed the shared recovery bucket, then 429 for everyone', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/social/auth/guest-recover',
        remoteAddress: `192.0.2.${i + 1}`,
        payload: { recovery_code: 'amber anchor apple arrow aspen badge' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });

  it('given the global bucket is empty for an address, when a route limited on global alone is called, then 429 with the global text', async () => {
    const check = () => t.app.inject({ method: 'GET', url: '/api/social/handles/check?handle=ada', remoteAddress: '198.51.100.40' });
    const statuses = [(await check()).statusCode, (await check()).statusCode];
    const refused = await check();
    expect([...statuses, refused.statusCode]).toEqual([200, 200, 429]);
    expect(refused.json()).toEqual({ success: false, error: 'Rate limit exceeded. Try again later.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

});

describe('the per-address bucket of the pipeline', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PIPELINE_IP: '3/1m' });
  });
  afterAll(() => t.close());

  it('given fresh accounts from one address, when they chat past the per-address bucket, then 429 although each user is under its own', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const user = await signUp(t, { prefix: 'sec' });
      const res = await fromRemote(t, 'POST', '/chat', { prompt_id: 'p', prompt: 'what is 1 + 1' }, user.token);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
