import { bestEndpoint, type EndpointNode, type KnownPeer, scorePeer, sourceOf } from './best-endpoint';

const now = new Date('2026-12-07T12:00:00.000Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
const local: EndpointNode = { node_id: 'me', url: 'http://10.0.0.1:6777', tier: 'flat', has_gpu: false, vram_free_gb: 0, tasks: ['chat'] };
const peer = (over: Partial<KnownPeer>): KnownPeer => ({ node_id: 'p', url: 'https://p.example.org', tier: 'flat', has_gpu: false, vram_free_gb: 0, tasks: [], last_seen_at: ago(1), ...over });
const best = (task: string, peers: KnownPeer[], parentUrl: string | null = null) => bestEndpoint({ task, local, peers, parentUrl, now });

describe('best endpoint', () => {
  it('given this node serves the task, then it is chosen over any peer', () => {
    expect(best('chat', [peer({ url: 'http://192.168.1.5', tasks: ['chat'], has_gpu: true })])).toMatchObject({ source: 'local', node_id: 'me' });
  });

  it('given a LAN, a regional and a cloud peer alike, then the LAN one wins', () => {
    const peers = [peer({ node_id: 'cloud', tier: 'central' }), peer({ node_id: 'reg', tier: 'regional', url: 'https://r.example.org' }), peer({ node_id: 'lan', url: 'http://192.168.1.5:6777' })];
    expect(best('stt', peers)).toMatchObject({ node_id: 'lan', source: 'lan' });
  });

  it('given the sources, then LAN scores 800, regional 400 (500 as the parent), cloud 200 before bonuses', () => {
    const stale = ago(120); // no freshness bonus
    expect(scorePeer(peer({ url: 'http://127.0.0.1:1', last_seen_at: stale }), 'tts', now, null)).toBe(800);
    expect(scorePeer(peer({ tier: 'regional', last_seen_at: stale }), 'tts', now, null)).toBe(400);
    expect(scorePeer(peer({ tier: 'regional', last_seen_at: stale }), 'tts', now, 'https://p.example.org')).toBe(500);
    expect(scorePeer(peer({ tier: 'central', last_seen_at: stale }), 'tts', now, null)).toBe(200);
  });

  it('given bonuses, then capability +100, GPU +50, VRAM +2 per GB up to 24, seen in 5 minutes +100, in the hour +50', () => {
    expect(scorePeer(peer({ tasks: ['vlm'], has_gpu: true, vram_free_gb: 80, last_seen_at: ago(2) }), 'vlm', now, null)).toBe(200 + 100 + 50 + 48 + 100);
    expect(scorePeer(peer({ vram_free_gb: 10, last_seen_at: ago(30) }), 'vlm', now, null)).toBe(200 + 20 + 50);
  });

  it('given a cloud peer with every bonus and a bare LAN peer, then the LAN peer still wins', () => {
    const peers = [peer({ node_id: 'cloud', tier: 'central', tasks: ['tts'], has_gpu: true, vram_free_gb: 48 }), peer({ node_id: 'lan', url: 'http://192.168.0.9', last_seen_at: ago(300) })];
    expect(best('tts', peers).node_id).toBe('lan');
  });

  it('given a peer not seen for over 24 hours, then it is left out', () => {
    expect(scorePeer(peer({ last_seen_at: ago(24 * 60 + 1) }), 'tts', now, null)).toBeNull();
  });

  it('given a peer that lists other tasks only, then it is left out', () => {
    expect(scorePeer(peer({ tasks: ['chat'] }), 'tts', now, null)).toBeNull();
  });

  it('given no candidate, then this node answers', () => {
    expect(best('tts', [peer({ tasks: ['chat'] })])).toMatchObject({ source: 'local', node_id: 'me', url: local.url });
  });

  it('given two equal scores, then the one seen last wins', () => {
    const peers = [peer({ node_id: 'a', last_seen_at: ago(3) }), peer({ node_id: 'b', last_seen_at: ago(1) })];
    expect(best('tts', peers).node_id).toBe('b');
  });

  it('given URLs, then localhost and private addresses are LAN, public regional-tier nodes regional, others cloud', () => {
    expect(sourceOf({ url: 'http://localhost:6777', tier: 'central' })).toBe('lan');
    expect(sourceOf({ url: 'http://[fd00::1]:80', tier: 'flat' })).toBe('lan');
    expect(sourceOf({ url: 'https://eu.example.org', tier: 'regional' })).toBe('regional');
    expect(sourceOf({ url: 'https://hub.example.org', tier: 'flat' })).toBe('cloud');
  });
});
