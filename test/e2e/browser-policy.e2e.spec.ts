/**
 * What browsers are told (docs/security.md): security headers on every
 * response, and CORS only for the configured origins.
 */
import { startTestApp, type TestApp } from '../support/app';

const preflight = (t: TestApp, origin: string) =>
  t.request('OPTIONS', '/chat', {
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
