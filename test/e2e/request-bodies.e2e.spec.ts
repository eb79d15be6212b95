/**
 * What the body parser refuses before any route sees it (json-body.ts): deep
 * nesting, lone surrogates and NUL characters, and any content type but
 * JSON (415, one text). A request without a body needs no content type.
 */
import { startTestApp, type TestApp } from '../support/app';

const JSON_ONLY = { success: false, error: 'Content-Type must be application/json' };
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('request bodies', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ BODY_LIMIT_BYTES: '65536' });
    const registered = await t.request('POST', '/api/social/register', {
      body: { username: 'bodies', email: 'bodies@example.com', password: 'correct horse battery' },
    });
    token = registered.body.data.token;
  });
  afterAll(() => t.close());

  it.each([
    ['a DTO route', '/api/social/register'],
    ['a field-reader route', '/chat'],
  ])('given 33 levels of nested arrays, when posting to %s, then 400 nested too deeply', async (_kind, path) => {
    const res = await t.request('POST', path, { rawBody: `{"username":${nested(33)}}` });
    expect(res).toMatchObject({ status: 400, body: { success: false, error: 'request body is nested too deeply (at most 32 levels)' } });
  });

  it('given 5,000 levels of nesting, when registering, then 400, not a stack overflow', async () => {
    const res = await t.request('POST', '/api/social/register', { rawBody: `{"a":${nested(5000)}}` });
    expect(res.status).toBe(400);
  });

  it('given 32 levels of nesting in an ignored field, when logging in, then the body is read', async () => {
    const res = await t.request('POST', '/api/social/login', { rawBody: `{"username":"nobody","password":"whatever","x":${nested(31)}}` });
    expect(res.status).toBe(401);
  });

  it('given an escaped lone surrogate in email, when registering, then 400 invalid unicode', async () => {
    const res = await t.request('POST', '/api/social/register', {
      rawBody: '{"username":"surrogate","email":"a\\ud800@example.com","password":"correct horse battery"}',
    });
    expect(res).toMatchObject({ status: 400, body: { success: false, error: 'request body contains invalid unicode (a lone surrogate)' } });
  });

  it('given a NUL character in a name, when registering, then 400 invalid unicode', async () => {
    const res = await t.request('POST', '/api/social/register', {
      body: { username: 'nul', email: 'nul@example.com', password: 'correct horse battery', display_name: 'a\u0000b' },
    });
    expect(res).toMatchObject({ status: 400, body: { success: false, error: 'request body contains invalid unicode (a NUL character)' } });
  });

  it('given a __proto__ key, when registering, then 400 (prototype poisoning is refused)', async () => {
    const res = await t.request('POST', '/api/social/register', { rawBody: '{"username":"proto","__proto__":{"admin":true}}' });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });

  it('given a body over the limit, when registering, then 413', async () => {
    const res = await t.request('POST', '/api/social/register', { body: { username: 'x'.repeat(70_000) } });
    expect(res.status).toBe(413);
  });

  it.each([
    ['a form', 'application/x-www-form-urlencoded', 'username=a&password=b'],
    ['multipart', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\na\r\n--x--\r\n'],
    ['plain text', 'text/plain', '{"username":"a","password":"b"}'],
    ['a malformed content type', 'json', '{}'],
  ])('given %s body, when logging in, then 415 Content-Type must be application/json', async (_kind, contentType, body) => {
    const res = await t.request('POST', '/api/social/login', { rawBody: body, headers: { 'content-type': contentType } });
    expect(res).toMatchObject({ status: 415, body: JSON_ONLY });
  });

  it('given a form body, when posting to an authenticated route without a token, then 415 before anything else', async () => {
    const res = await t.request('POST', '/api/social/encounter/discoverable', {
      rawBody: 'enabled=true',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res).toMatchObject({ status: 415, body: JSON_ONLY });
  });

  it('given JSON with a charset, when logging in, then the body is read', async () => {
    const res = await t.request('POST', '/api/social/login', {
      rawBody: '{"username":"nobody","password":"whatever"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(401);
  });

  it('given no body and no content type, when logging out, then it works', async () => {
    const res = await t.request('POST', '/api/social/auth/logout', { token });
    expect(res.status).toBeLessThan(300);
  });

  it('given no body and no content type, when joining as a compute provider (every field optional), then it works', async () => {
    const res = await t.request('POST', '/api/settings/compute/provider/join');
    expect(res.status).toBeLessThan(300);
  });

  it('given a path parameter over 100 characters, when requested, then 414 in the error envelope', async () => {
    const res = await t.request('GET', `/goals/${'a'.repeat(101)}`);
    expect(res).toMatchObject({ status: 414, body: { success: false, error: 'a path parameter of the URL is too long' } });
  });

  it('given HEAD on the encounter stream, when authenticated, then the headers alone and the response ends', async () => {
    const viewer = await t.request('POST', '/api/social/register', {
      body: { username: 'streamhead', email: 'streamhead@example.com', password: 'correct horse battery' },
    });
    const res = await t.request('HEAD', '/api/social/encounter/stream', { token: viewer.body.data.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  });

  it('given a path whose percent-encoding does not decode, when requested, then 400 in the error envelope', async () => {
    const res = await t.request('GET', '/goals/%ED%A0%80');
    expect(res).toMatchObject({ status: 400, body: { success: false, error: 'the request URL is malformed' } });
  });
});
