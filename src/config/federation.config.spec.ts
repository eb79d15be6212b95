import { ConfigError, loadConfig } from './config';

describe('federation config', () => {
  it('given a regional node with an upstream, then it replays that upstream, registering its own URL', () => {
    const config = loadConfig({ SVC_NODE_TIER: 'regional', FEDERATION_UPSTREAM_URL: 'http://central:6777', HOST: '10.0.0.2', PORT: '7000' });
    expect(config.federation).toMatchObject({ upstreamUrl: 'http://central:6777', publicUrl: 'http://10.0.0.2:7000', autoAccept: false, pageSize: 500, waitSeconds: 20, brand: 'agent-platform' });
  });

  it('given a regional node without an upstream, then it stands alone (no replay)', () => {
    expect(loadConfig({ SVC_NODE_TIER: 'regional' }).federation.upstreamUrl).toBeNull();
  });

  it.each([
    [{ FEDERATION_UPSTREAM_URL: 'http://central:6777' }, /only a regional node/],
    [{ SVC_NODE_TIER: 'regional', FEDERATION_UPSTREAM_URL: 'central:6777' }, /FEDERATION_UPSTREAM_URL: expected an http\(s\) URL/],
    [{ FEDERATION_WAIT_SECONDS: '31' }, /FEDERATION_WAIT_SECONDS/],
    [{ FEDERATION_PAGE_SIZE: '0' }, /FEDERATION_PAGE_SIZE/],
    [{ SOCIAL_BRAND: 'Bad Brand' }, /SOCIAL_BRAND/],
    [{ SYNC_PARENT_URL: 'central:6777' }, /SYNC_PARENT_URL: expected an http\(s\) URL/],
    [{ SVC_NODE_TIER: 'regional', FEDERATION_UPSTREAM_URL: 'http://central:6777', SYNC_PARENT_URL: 'http://central:6777' }, /SYNC_PARENT_URL: a node that replays/],
    [{ SYNC_PARENT_TIER: 'flat' }, /SYNC_PARENT_TIER/],
    [{ SYNC_BATCH_SIZE: '0' }, /SYNC_BATCH_SIZE/],
    [{ SYNC_INTERVAL_MS: '10' }, /SYNC_INTERVAL_MS/],
  ])('given %p, then start fails naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('given FEDERATION_AUTO_ACCEPT=1, then central approves registering nodes at once', () => {
    expect(loadConfig({ FEDERATION_AUTO_ACCEPT: '1' }).federation.autoAccept).toBe(true);
  });

  it('given no sync settings, then no parent, a 30 s sender, batches of 50 and a cap of 10000', () => {
    expect(loadConfig({}).federation.sync).toEqual({ parentUrl: null, parentTier: 'central', intervalMs: 30_000, batchSize: 50, queueCap: 10_000, timeoutMs: 10_000 });
    expect(loadConfig({}).federation.allowPrivatePeers).toBe(false);
  });

  it('given SYNC_PARENT_URL with a trailing slash, then the parent is that URL without it', () => {
    expect(loadConfig({ SYNC_PARENT_URL: 'https://hub.example.org/', SYNC_BATCH_SIZE: '20' }).federation.sync).toMatchObject({ parentUrl: 'https://hub.example.org', batchSize: 20 });
  });
});
