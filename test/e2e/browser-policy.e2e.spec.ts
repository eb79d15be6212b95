/**
 * What browsers are told (docs/security.md): security headers on every
 * response, CORS only for the configured origins, and for any origin on the
 * routes the chat widget calls from other sites.
 */
import { startTestApp, type TestApp } from '../support/app';

const preflight = (t: TestApp, origin: string, path = '/goals') =>
  t.request('OPTIONS', path, {
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
  });

describe('a node without CORS_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('given any response, then it carries the security headers', async () => {
    const res = await t.request('GET', '/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });

  it('given a preflight from another origin, then no origin is allowed', async () => {
    const res = await preflight(t, 'https://elsewhere.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('given a preflight for the widget’s /chat from any site, then it is allowed with X-API-Key, and no credentials', async () => {
    const res = await t.request('OPTIONS', '/chat', {
      headers: { origin: 'https://any-shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toContain('x-api-key');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('given the widget’s call to /chat from any site, then the page may read the answer', async () => {
    const res = await t.request('POST', '/chat', { headers: { origin: 'https://any-shop.example', 'x-api-key': 'ak_bad' }, body: { prompt_id: 'p', prompt: 'hi' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('a node with CORS_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: 'https://app.example.com' });
  });
  afterAll(() => t.close());

  it('given a preflight from a listed origin, then it is allowed with the headers a client sends, and no credentials', async () => {
    const res = await preflight(t, 'https://app.example.com');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('given a call from a listed origin, then Retry-After and the request id are readable by the page', async () => {
    const res = await t.request('GET', '/health', { headers: { origin: 'https://app.example.com' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(res.headers.get('access-control-expose-headers')).toContain('retry-after');
  });

  it('given a preflight from an origin not listed, then it is not allowed', async () => {
    const res = await preflight(t, 'https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('a node with CORS_ORIGINS, on the widget’s routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: 'https://app.example.com' });
  });
  afterAll(() => t.close());

  it('given a preflight for /chat from an origin not listed, then the widget’s any-origin policy still answers', async () => {
    const res = await preflight(t, 'https://any-shop.example', '/chat');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
