import { ConfigError, loadConfig } from './config';

describe('config', () => {
  it('given no environment, then the embedded default on port 6777 with data under ./data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 6777,
      eventStore: 'sqlite',
      readStore: 'embedded',
      bus: 'in-process',
      nodeTier: 'flat',
      readYourWritesTimeoutMs: 2000,
    });
    expect(config.dataDir).toMatch(/[/\\]data$/);
  });

  it.each([
    ['PORT', 'abc', /PORT: expected an integer, got 'abc'/],
    ['PORT', '70000', /PORT: expected 0\.\.65535, got 70000/],
    ['EVENT_STORE', 'postgres', /EVENT_STORE: expected one of sqlite/],
    ['SVC_NODE_TIER', 'global', /SVC_NODE_TIER: expected one of flat, regional, central/],
    ['JWT_SECRET', 'short', /JWT_SECRET: must be at least 32 characters/],
    ['BODY_LIMIT_BYTES', '-1', /BODY_LIMIT_BYTES/],
    ['NODE_ID', 'has spaces', /NODE_ID/],
  ])('given %s=%s, then start fails with a message naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('given SVC_ADMIN_USERS, then the names are trimmed and lower-cased', () => {
    expect(loadConfig({ SVC_ADMIN_USERS: ' Alice, bob ,,' }).adminUsernames).toEqual(['alice', 'bob']);
  });
});
