/**
 * The platform descriptor (social-routes §22, "Discovery"): public, at
 * /.well-known/<brand>-social.json, saying where the node sits in the
 * hierarchy and where its routes are.
 */
import { startTestApp, type TestApp } from '../support/app';

describe('discovery descriptor', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ SVC_NODE_TIER: 'central', SOCIAL_BRAND: 'hivemind', FEDERATION_PUBLIC_URL: 'https://central.example' });
  });
  afterAll(() => t.close());

  it('given no credential, when a client reads the brand descriptor, then it gets the platform, its tier and its endpoints', async () => {
    const res = await t.request('GET', '/.well-known/hivemind-social.json');

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'hivemind',
      version: expect.any(String),
      protocolVersion: '1.0',
      type: 'social-platform',
      base_url: 'https://central.example',
      hierarchy: { tier: 'central', central_url: 'https://central.example', regional_url: null },
      auth: { type: 'bearer', login: '/api/social/auth/login' },
    });
    expect(res.body.capabilities).toEqual(expect.arrayContaining(['social', 'federation', 'a2a', 'openai']));
    expect(res.body.supported_platforms).toEqual(expect.arrayContaining(['web']));
  });

  it('given another brand word, then the same descriptor answers (the file is `<brand>-social.json`)', async () => {
    const res = await t.request('GET', '/.well-known/other-social.json');

    expect(res.status).toBe(200);
    expect(res.body.name).toBe('hivemind');
  });

  it('given a listed endpoint, then the node serves it', async () => {
    const { endpoints } = (await t.request('GET', '/.well-known/hivemind-social.json')).body;

    for (const name of ['feed', 'feeds_rss', 'public_key', 'openapi', 'health']) {
      expect([name, (await t.request('GET', endpoints[name])).status]).toEqual([name, 200]);
    }
  });

  it('given any other file under /.well-known, then 404', async () => {
    expect((await t.request('GET', '/.well-known/security.txt')).status).toBe(404);
  });
});
