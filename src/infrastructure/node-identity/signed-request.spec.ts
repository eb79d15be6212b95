import { EmbeddedReadStore } from '../read-store/embedded/embedded-read-store';
import { NodeKey } from './node-key';
import { ReadStoreNonceStore } from './read-store-nonce-store';
import { NODE_NONCE_HEADER, NODE_SIGNATURE_HEADER, NODE_TIMESTAMP_HEADER, type NodeKeyDirectory, signRequest, verifySignedRequest } from './signed-request';

describe('signed node requests', () => {
  const sender = NodeKey.generate();
  const stranger = NodeKey.generate();
  const keys: NodeKeyDirectory = { publicKeyOf: async (nodeId) => (nodeId === 'node-a' ? sender.publicKeyHex : null) };
  const request = { method: 'POST', path: '/api/social/integrity/challenge?x=1', body: '{"type":"stats_probe","nonce":"n1"}' };
  const now = 1_700_000_000_000;
  let store: EmbeddedReadStore;
  let nonces: ReadStoreNonceStore;
  let clock: number;

  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
    clock = now;
    nonces = new ReadStoreNonceStore(store, () => clock, 0);
  });
  afterEach(() => store.close());

  const verify = (headers: Record<string, string>, overrides: Partial<typeof request> = {}, at = now) =>
    verifySignedRequest({ ...request, ...overrides, headers }, { keys, nonces, now: at, maxSkewMs: 60_000 });

  it('given a request signed by a registered node, when verified, then it is accepted as that node', async () => {
    expect(await verify(signRequest(sender, 'node-a', request, now))).toEqual({ ok: true, nodeId: 'node-a' });
  });

  it('given a request signed with another key than the registered one, when verified, then it is refused', async () => {
    expect(await verify(signRequest(stranger, 'node-a', request, now))).toMatchObject({ ok: false, refusal: 'bad_signature' });
  });

  it('given a signed request whose body, path or method was changed on the way, when verified, then it is refused', async () => {
    const headers = signRequest(sender, 'node-a', request, now);

    expect(await verify(headers, { body: '{"type":"stats_probe","nonce":"n2"}' })).toMatchObject({ refusal: 'bad_signature' });
    expect(await verify(headers, { path: '/api/social/integrity/challenge?x=2' })).toMatchObject({ refusal: 'bad_signature' });
    expect(await verify(headers, { method: 'PUT' })).toMatchObject({ refusal: 'bad_signature' });
  });

  it('given a timestamp older or newer than the window, when verified, then it is refused', async () => {
    expect(await verify(signRequest(sender, 'node-a', request, now - 61_000))).toMatchObject({ ok: false, refusal: 'stale_timestamp' });
    expect(await verify(signRequest(sender, 'node-a', request, now + 61_000))).toMatchObject({ ok: false, refusal: 'stale_timestamp' });
  });

  it('given a captured request replayed, when verified again, then the replay is refused', async () => {
    const headers = signRequest(sender, 'node-a', request, now);
    await verify(headers);

    expect(await verify(headers, {}, now + 1000)).toMatchObject({ ok: false, refusal: 'replayed_nonce' });
  });

  it('given concurrent copies of one signed request, when verified at once, then exactly one is accepted', async () => {
    const headers = signRequest(sender, 'node-a', request, now);

    const results = await Promise.all(Array.from({ length: 10 }, () => verify(headers)));

    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it('given a forged signature, when verified, then the nonce is not burnt and the genuine request still passes', async () => {
    const genuine = signRequest(sender, 'node-a', request, now);
    await verify({ ...genuine, [NODE_SIGNATURE_HEADER]: stranger.sign('x') });

    expect(await verify(genuine)).toEqual({ ok: true, nodeId: 'node-a' });
  });

  it('given an unknown node, missing or malformed headers, when verified, then each is refused with its reason', async () => {
    const headers = signRequest(sender, 'node-b', request, now);

    expect(await verify(headers)).toMatchObject({ refusal: 'unknown_node' });
    expect(await verify({})).toMatchObject({ refusal: 'missing_headers' });
    expect(await verify({ ...headers, [NODE_TIMESTAMP_HEADER]: 'soon' })).toMatchObject({ refusal: 'malformed_headers' });
    expect(await verify({ ...headers, [NODE_NONCE_HEADER]: 'short' })).toMatchObject({ refusal: 'malformed_headers' });
  });

  it('given nonces whose window has passed, when another request is claimed, then they are forgotten (the memory stays bounded)', async () => {
    for (let i = 0; i < 5; i++) await verify(signRequest(sender, 'node-a', request, now));
    expect(await nonces.count()).toBe(5);

    clock = now + 61_000;
    await verify(signRequest(sender, 'node-a', request, clock), {}, clock);

    expect(await nonces.count()).toBe(1);
  });
});
