import { startTestApp, type TestApp, uniqueName } from '../support/app';

describe('API keys over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function session(): Promise<string> {
    const username = uniqueName();
    const res = await t.request('POST', '/api/social/register', {
      body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
    });
    return res.body.data.token;
  }

  async function issueKey(token: string): Promise<string> {
    const res = await t.request('POST', '/api/v1/intelligence/keys', { token, body: { name: 'ci', tier: 'free' } });
    expect(res.status).toBe(201);
    return res.body.data.key;
  }

  it('given a bearer JWT, when creating a free key, then 201 shows the key once with its daily limit', async () => {
    const token = await session();
    const res = await t.request('POST', '/api/v1/intelligence/keys', { token, body: { name: 'my key', tier: 'free' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'my key', tier: 'free', daily_limit: 100 });
    expect(res.body.data.key).toMatch(/^ak_[0-9a-f]{16}_/);
    expect(res.body.data.api_key).toBe(res.body.data.key);
    const list = await t.request('GET', '/api/v1/intelligence/keys', { token });
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(res.body.data.key);
  });

  it('given no token, when creating a key, then 401', async () => {
    const res = await t.request('POST', '/api/v1/intelligence/keys', { body: { name: 'x', tier: 'free' } });
    expect(res.status).toBe(401);
  });

  it('given an unknown tier, when creating a key, then 400', async () => {
    const res = await t.request('POST', '/api/v1/intelligence/keys', { token: await session(), body: { name: 'x', tier: 'gold' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/tier/);
  });

  it('given a key, when it is presented as X-API-Key or Bearer, then the request acts as its owner', async () => {
    const token = await session();
    const key = await issueKey(token);
    const viaHeader = await t.request('GET', '/api/social/auth/me', { headers: { 'x-api-key': key } });
    const viaBearer = await t.request('GET', '/api/social/auth/me', { token: key });
    const me = await t.request('GET', '/api/social/auth/me', { token });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.data.id).toBe(me.body.data.id);
    expect(viaBearer.body.data.id).toBe(me.body.data.id);
  });

  describe('a key restricted to listed origins', () => {
    const SHOP = 'https://shop.example';
    async function restrictedKey(): Promise<string> {
      const res = await t.request('POST', '/api/v1/intelligence/keys', {
        token: await session(),
        body: { name: 'widget', tier: 'free', allowed_origins: [SHOP, 'http://localhost:8080'] },
      });
      expect(res.status).toBe(201);
      expect(res.body.data.allowed_origins).toEqual([SHOP, 'http://localhost:8080']);
      return res.body.data.key;
    }

    it('given a restricted key, when a listed origin presents it, then the request acts as its owner', async () => {
      const res = await t.request('GET', '/api/social/auth/me', { headers: { 'x-api-key': await restrictedKey(), origin: SHOP } });
      expect(res.status).toBe(200);
    });

    it('given a restricted key, when another origin presents it, then 403 and the key is not confirmed as usable', async () => {
      const res = await t.request('GET', '/api/social/auth/me', { headers: { 'x-api-key': await restrictedKey(), origin: 'https://evil.example' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, error: 'API key not allowed from this origin' });
    });

    it('given a restricted key, when a request without an Origin presents it, then 403', async () => {
      const res = await t.request('GET', '/api/social/auth/me', { headers: { 'x-api-key': await restrictedKey() } });
      expect(res.status).toBe(403);
    });

    it('given a restricted key, when listing keys, then its origins are shown', async () => {
      const token = await session();
      await t.request('POST', '/api/v1/intelligence/keys', { token, body: { name: 'w', tier: 'free', allowed_origins: ['https://A.example'] } });
      const list = await t.request('GET', '/api/v1/intelligence/keys', { token });
      expect(list.body.data[0].allowed_origins).toEqual(['https://a.example']);
    });

    it('given an origin with a path, when creating a key, then 400 names the rule', async () => {
      const res = await t.request('POST', '/api/v1/intelligence/keys', {
        token: await session(),
        body: { name: 'w', tier: 'free', allowed_origins: ['https://shop.example/page'] },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('scheme://host[:port]');
    });
  });

  it('given a key, when it tries to mint another key, then 401: key management needs a login', async () => {
    const key = await issueKey(await session());
    const res = await t.request('POST', '/api/v1/intelligence/keys', { token: key, body: { name: 'x', tier: 'free' } });
    expect(res.status).toBe(401);
  });

  it('given a tampered key, when presented, then 401 Invalid API key', async () => {
    const key = await issueKey(await session());
    const res = await t.request('GET', '/api/social/auth/me', { headers: { 'x-api-key': `${key.slice(0, -2)}xx` } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: 'Invalid API key' });
  });

  it('given a free key, when 120 requests arrive at once, then exactly 100 pass and 20 get 429', async () => {
    const key = await issueKey(await session());
    const results = await Promise.all(
      Array.from({ length: 120 }, () => t.request('GET', '/api/social/auth/me', { headers: { 'x-api-key': key } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(100);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(20);
    expect(refused[0].body.error).toMatch(/100 requests per day/);
  });

  it('given a revoked key, when presented, then 401', async () => {
    const token = await session();
    const key = await issueKey(token);
    const id = key.slice(3, 19);
    expect((await t.request('DELETE', `/api/v1/intelligence/keys/${id}`, { token })).status).toBe(200);
    expect((await t.request('GET', '/api/social/auth/me', { headers: { 'x-api-key': key } })).status).toBe(401);
  });

  it("given someone else's key id, when revoking it, then 404", async () => {
    const key = await issueKey(await session());
    const res = await t.request('DELETE', `/api/v1/intelligence/keys/${key.slice(3, 19)}`, { token: await session() });
    expect(res.status).toBe(404);
  });
});
