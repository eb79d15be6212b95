/**
 * The embedding routes over HTTP (docs/api.md "Embedding"): what each page
 * and script answers, with which headers; the pages' behaviour in a browser
 * is in embeds.browser.e2e.spec.ts.
 */
import { startTestApp, type TestApp, uniqueName } from '../support/app';

describe('the embedding routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ EMBED_FRAME_ANCESTORS: 'https://shop.example' });
  });
  afterAll(() => t.close());

  const text = async (path: string) => {
    const res = await fetch(`${t.url}${path}`);
    return { status: res.status, headers: res.headers, body: await res.text() };
  };
  async function session(): Promise<{ token: string; id: string }> {
    const username = uniqueName();
    const res = await t.request('POST', '/api/social/register', { body: { username, email: `${username}@example.com`, password: 'correct horse battery' } });
    return { token: res.body.data.token, id: res.body.data.id };
  }

  it('given an agent name, when the embed page is asked for, then a frameable HTML page with its own strict policy', async () => {
    const res = await text('/agents/Travel%20Planner?embed=true');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-frame-options')).toBeNull();
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).not.toContain(',');
    expect(csp).toContain('frame-ancestors https://shop.example');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(res.headers.get('permissions-policy')).toContain('microphone=(self)');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toContain('"promptId":"travel-planner"');
    expect(res.body).toContain('<header>Travel Planner</header>');
  });

  it('given any other route, then it stays unframeable', async () => {
    const res = await text('/health');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('given a name that is markup, then the page shows it as text', async () => {
    const res = await text(`/agents/${encodeURIComponent('<img src=x onerror=alert(1)>bot')}?embed=true`);
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('<img');
    expect(res.body).toContain('&lt;img');
  });

  it('given a valid token and its user_id, then the page acts as that user', async () => {
    const { token, id } = await session();
    const res = await text(`/agents/helper?embed=true&token=${token}&user_id=${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toContain(`"token":"${token}"`);
  });

  it('given a forged token, then 401 and a page that says so, with no script', async () => {
    const res = await text('/agents/helper?embed=true&token=eyJhbGciOiJIUzI1NiJ9.e30.forged');
    expect(res.status).toBe(401);
    expect(res.body).toContain('invalid or has expired');
    expect(res.body).not.toContain('<script');
  });

  it('given a token and another user’s id, then 403 and a page that says so', async () => {
    const { token } = await session();
    const res = await text(`/agents/helper?embed=true&token=${token}&user_id=someone-else`);
    expect(res.status).toBe(403);
    expect(res.body).toContain('for another user');
  });

  it('given user_id without a token, then 401: a user id alone is no credential', async () => {
    const res = await text('/agents/helper?embed=true&user_id=u1');
    expect(res.status).toBe(401);
  });

  it('given a name of symbols only, then 404', async () => {
    expect((await text('/agents/---?embed=true')).status).toBe(404);
  });

  it('given plugin=1, then the audio page without any token', async () => {
    const res = await text('/agents/helper?plugin=1&token=ignored');
    expect(res.status).toBe(200);
    expect(res.body).toContain('data-mode="plugin"');
    expect(res.body).toContain('"token":null');
  });

  it.each(['/widget.js', '/embed/widget-object.js'])('given %s, then JavaScript that other sites may load', async (path) => {
    const res = await text(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(() => new Function(res.body)).not.toThrow();
  });
});
