/**
 * Bad input on every route: 4xx with a clear message in the error envelope,
 * never a 5xx.
 */
import { startTestApp, type TestApp } from '../support/app';

const PUBLIC_ROUTES = [
  '/api/social/auth/register',
  '/api/social/auth/login',
  '/api/social/auth/guest-register',
  '/api/social/auth/guest-recover',
  '/api/social/register',
  '/api/social/login',
  '/social/auth/register',
  '/social/auth/login',
];

/** Routes behind authentication get the same treatment once the caller is authenticated. */
const AUTHENTICATED_ROUTES = ['/api/v1/intelligence/keys', '/api/social/admin/users/x/role', '/api/social/auth/logout'];
const POST_ROUTES = [...PUBLIC_ROUTES, ...AUTHENTICATED_ROUTES];

describe('HTTP robustness', () => {
  let t: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    t = await startTestApp({ BODY_LIMIT_BYTES: '4096', SVC_ADMIN_USERS: 'robustadmin' });
    const admin = await t.request('POST', '/api/social/register', {
      body: { username: 'robustadmin', email: 'robust@example.com', password: 'correct horse battery' },
    });
    adminToken = admin.body.data.token;
  });

  const send = (path: string, options: Parameters<TestApp['request']>[2]) =>
    t.request(path.includes('/role') ? 'PUT' : 'POST', path, {
      ...options,
      token: AUTHENTICATED_ROUTES.includes(path) ? adminToken : undefined,
    });
  afterAll(() => t.close());

  it.each(POST_ROUTES)('given malformed JSON, when posting to %s, then 400 with an error envelope', async (path) => {
    const res = await send(path, { rawBody: '{"username": "x",' });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(typeof res.body.error).toBe('string');
  });

  it.each(POST_ROUTES.filter((p) => !p.endsWith('/logout')))('given a JSON array body, when posting to %s, then 400 body must be an object', async (path) => {
    const res = await send(path, { body: [1, 2] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'request body must be a JSON object' });
  });

  it.each(POST_ROUTES.filter((p) => !p.endsWith('/logout')))('given an empty body, when posting to %s, then 400', async (path) => {
    const res = await send(path, {});
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });

  it.each(POST_ROUTES)('given a body over the limit, when posting to %s, then 413', async (path) => {
    const res = await send(path, { body: { username: 'x'.repeat(10_000) } });
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
  });

  it.each(POST_ROUTES.filter((p) => !p.endsWith('/logout')))('given wrong field types, when posting to %s, then 400 naming a field', async (path) => {
    const res = await send(path, {
      body: { username: 1, password: true, email: [], guest_name: {}, recovery_code: 5, device_id: 7, name: 3, tier: 1, role: 2 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/must be/);
  });

  it('given an unsupported content type, when posting, then 415', async () => {
    const res = await t.request('POST', '/api/social/login', { rawBody: 'a=b', headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(415);
    expect(res.body.success).toBe(false);
  });

  it('given an unknown route, when called, then 404 in the error envelope', async () => {
    const res = await t.request('GET', '/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });

  it('given unknown extra fields, when logging in, then they are ignored', async () => {
    const res = await t.request('POST', '/api/social/login', {
      body: { username: 'nobody-here', password: 'whatever-pass', $where: 'sleep(1)', extra: { $gt: '' } },
    });
    expect(res.status).toBe(401);
  });

  it('given an operator object as username, when logging in, then 400 (no operator injection)', async () => {
    const res = await t.request('POST', '/api/social/login', { body: { username: { $ne: null }, password: 'x' } });
    expect(res.status).toBe(400);
  });
});
