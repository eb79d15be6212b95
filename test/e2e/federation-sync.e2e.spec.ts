/**
 * The hierarchical sync queue, federation between peers and the peer
 * network over HTTP (social-routes §19), between real apps in one process:
 * a central node (the parent), a child node whose parent it is, and a lone
 * node whose parent does not answer. Keys and node ids are fixed up front so
 * each node trusts the others' keys (TRUSTED_NODE_KEYS). The sender runs by
 * hand (SYNC_INTERVAL_MS=0: SyncSender.send()).
 */
import passport from 'passport';
import { NodeKey } from '../../src/infrastructure/node-identity/node-key';
import { JwtStrategy } from '../../src/modules/accounts/auth/jwt.strategy';
import { sendSigned, signRequest } from '../../src/infrastructure/node-identity/signed-request';
import { SyncSender } from '../../src/sagas/sync-sender.sweeper';
import { settled, signUp, startTestApp, type TestApp, uniqueLetters, uniqueName } from '../support/app';

jest.setTimeout(120_000);

const P = '/api/social';
const ADMIN = uniqueName('syncadmin');
const json = (res: Response): Promise<any> => res.json();

describe('federation sync, peers and the sync queue', () => {
  const centralKey = NodeKey.generate();
  const childKey = NodeKey.generate();
  const loneKey = NodeKey.generate();
  const strangerKey = NodeKey.generate();
  const suffix = uniqueLetters();
  const centralId = `central-${suffix}`;
  const childId = `child-${suffix}`;
  const loneId = `lone-${suffix}`;
  let central: TestApp;
  let child: TestApp;
  let lone: TestApp;
  const admins: Record<'central' | 'child' | 'lone', string> = { central: '', child: '', lone: '' };

  const nodeEnv = (id: string, key: NodeKey, trusted: [string, NodeKey][], extra: Record<string, string> = {}) => ({
    SVC_NODE_ID: id,
    NODE_PRIVATE_KEY: key.toPem(),
    TRUSTED_NODE_KEYS: trusted.map(([nodeId, k]) => `${nodeId}=${k.publicKeyHex}`).join(','),
    SVC_ADMIN_USERS: ADMIN,
    // one secret for the apps of this process: passport-jwt's verifier hook is static, the last app's wins
    JWT_SECRET: 'federation-sync-suite-secret-of-32-characters',
    FEDERATION_ALLOW_PRIVATE: '1',
    SYNC_INTERVAL_MS: '0',
    ...extra,
  });

  beforeAll(async () => {
    central = await startTestApp(nodeEnv(centralId, centralKey, [[childId, childKey]], { SVC_NODE_TIER: 'central' }));
    child = await startTestApp(nodeEnv(childId, childKey, [[centralId, centralKey]], { SYNC_PARENT_URL: central.url }));
    lone = await startTestApp(nodeEnv(loneId, loneKey, [[childId, childKey]], { SYNC_PARENT_URL: 'http://127.0.0.1:1', SYNC_QUEUE_CAP: '2', SYNC_TIMEOUT_MS: '2000' }));
    // passport keeps one strategy per name for the process (the last app's): a request to an app authenticates with that app's users
    for (const app of [central, child, lone]) {
      const send = app.request;
      app.request = (method, path, options) => {
        passport.use('jwt', app.app.get(JwtStrategy));
        return send(method, path, options);
      };
    }
    for (const [name, app] of [['central', central], ['child', child], ['lone', lone]] as const) admins[name] = (await signUp(app, { username: ADMIN })).token;
  });
  afterAll(async () => {
    await Promise.all([central?.close(), child?.close(), lone?.close()]);
  });

  /** A POST signed as `nodeId` with `key` (the bytes sent are the bytes signed). */
  const signedPost = (app: TestApp, path: string, body: unknown, key = childKey, nodeId = childId) => sendSigned(key, nodeId, app.url, { method: 'POST', path: `${P}${path}`, body });
  const batch = (items: unknown[], nodeId = childId) => ({ node_id: nodeId, items });
  const feed = async (app: TestApp) => (await app.request('GET', `${P}/federation/feed?limit=100`)).body.data as Array<Record<string, any>>;
  const publish = async (app: TestApp, title: string) => {
    const author = await signUp(app, { prefix: 'syncauthor' });
    const res = await app.request('POST', `${P}/posts`, { token: author.token, body: { title, content: `${title}: the body` } });
    expect(res.status).toBe(201);
    await settled(app);
    return res.body.data.id as string;
  };
  const queue = async (app: TestApp, token: string, status = '') => (await app.request('GET', `${P}/sync/queue${status ? `?status=${status}` : ''}`, { token })).body;

  describe('POST /hierarchy/sync: the signature', () => {
    it('given a batch signed as the child with another key, then 401', async () => {
      expect((await signedPost(central, '/hierarchy/sync', batch([]), strangerKey)).status).toBe(401);
    });

    it('given a batch signed by a node whose key is not registered here, then 401', async () => {
      expect((await signedPost(central, '/hierarchy/sync', batch([], 'stranger'), strangerKey, 'stranger')).status).toBe(401);
    });

    it('given a batch signed two minutes ago (outside the 60 s window), then 401', async () => {
      const path = `${P}/hierarchy/sync`;
      const body = JSON.stringify(batch([]));
      const headers = { ...signRequest(childKey, childId, { method: 'POST', path, body }, Date.now() - 120_000), 'content-type': 'application/json' };
      const res = await fetch(new URL(path, central.url), { method: 'POST', headers, body });
      expect(res.status).toBe(401);
      expect((await json(res)).error).toMatch(/timestamp/);
    });

    it('given a captured batch, when it is replayed, then the replay is refused with 401', async () => {
      const path = `${P}/hierarchy/sync`;
      const body = JSON.stringify(batch([]));
      const headers = { ...signRequest(childKey, childId, { method: 'POST', path, body }), 'content-type': 'application/json' };
      expect((await fetch(new URL(path, central.url), { method: 'POST', headers, body })).status).toBe(200);
      const replay = await fetch(new URL(path, central.url), { method: 'POST', headers, body });
      expect(replay.status).toBe(401);
      expect((await json(replay)).error).toBe('Replayed node request');
    });

    it('given a batch whose node_id is not the signing node, then 403', async () => {
      const res = await signedPost(central, '/hierarchy/sync', batch([], centralId));
      expect(res.status).toBe(403);
      expect((await json(res)).error).toBe('node_id does not match the signing node');
    });

    it('given a user token and no signature, then 401', async () => {
      expect((await central.request('POST', `${P}/hierarchy/sync`, { token: admins.central, body: batch([]) })).status).toBe(401);
    });
  });

  describe('POST /hierarchy/sync: the batch', () => {
    it('given an empty batch, then {success, processed: [], errors: []}', async () => {
      const res = await signedPost(central, '/hierarchy/sync', batch([]));
      expect(await json(res)).toEqual({ success: true, processed: [], errors: [] });
    });

    it('given a sync_post, an unknown type and an invalid post, then the first two are processed and the third is an error; sent again, the same answer and one post', async () => {
      const items = [
        { id: `x1-${suffix}`, operation_type: 'sync_post', payload: { id: `origin-1-${suffix}`, title: 'Hello <b>central</b>', content: 'From the child' } },
        { id: `x2-${suffix}`, operation_type: 'teleport', payload: {} },
        { id: `x3-${suffix}`, operation_type: 'sync_post', payload: { title: 'no id' } },
        { id: `x4-${suffix}`, operation_type: 'sync_blocklist', payload: { token_ids: [] } },
      ];
      const first = await json(await signedPost(central, '/hierarchy/sync', batch(items)));
      expect(first).toEqual({ success: true, processed: [`x1-${suffix}`, `x2-${suffix}`, `x4-${suffix}`], errors: [{ id: `x3-${suffix}`, error: expect.stringMatching(/id is required/) }] });

      const again = await json(await signedPost(central, '/hierarchy/sync', batch(items)));
      expect(again).toEqual(first);
      const landed = (await feed(central)).filter((p) => p.origin_post_id === `origin-1-${suffix}`);
      expect(landed).toHaveLength(1);
      expect(landed[0]).toMatchObject({ origin_node_id: childId, via: 'sync', title: 'Hello &lt;b&gt;central&lt;/b&gt;' });
    });

    it('given one batch sent twice at once, then both answers process it and the post lands once', async () => {
      const items = [{ id: `race-${suffix}`, operation_type: 'sync_post', payload: { id: `origin-race-${suffix}`, title: 'Raced', content: 'once' } }];
      const replies = await Promise.all([signedPost(central, '/hierarchy/sync', batch(items)), signedPost(central, '/hierarchy/sync', batch(items))]);
      for (const reply of replies) expect((await json(reply)).processed).toEqual([`race-${suffix}`]);
      expect((await feed(central)).filter((p) => p.origin_post_id === `origin-race-${suffix}`)).toHaveLength(1);
    });

    it('given an item refused 5 times, when sent a 6th time, then it is reported processed (dead here) without running', async () => {
      const items = [{ id: `bad-${suffix}`, operation_type: 'sync_post', payload: { id: 'x' } }];
      for (let i = 0; i < 5; i++) expect((await json(await signedPost(central, '/hierarchy/sync', batch(items)))).errors).toHaveLength(1);
      expect(await json(await signedPost(central, '/hierarchy/sync', batch(items)))).toEqual({ success: true, processed: [`bad-${suffix}`], errors: [] });
    });

    it('given the child’s capacity before and after its register_node item, then it is refused as unknown, then registered and taken', async () => {
      const stats = (id: string) => ({ id, operation_type: 'update_stats', payload: { node_id: childId, compute_info: { cpu_cores: 8 } } });
      const register = (id: string, publicKey = childKey.publicKeyHex) => ({ id, operation_type: 'register_node', payload: { node_id: childId, public_key: publicKey, compute_info: { cpu_cores: 8 } } });

      const before = await json(await signedPost(central, '/hierarchy/sync', batch([stats(`stats-1-${suffix}`)])));
      const otherKey = await json(await signedPost(central, '/hierarchy/sync', batch([register(`reg-0-${suffix}`, strangerKey.publicKeyHex)])));
      const registered = await json(await signedPost(central, '/hierarchy/sync', batch([register(`reg-1-${suffix}`), stats(`stats-2-${suffix}`)])));

      expect(before).toEqual({ success: true, processed: [], errors: [{ id: `stats-1-${suffix}`, error: 'Node not found' }] });
      expect(otherKey.errors).toEqual([{ id: `reg-0-${suffix}`, error: 'register_node: public_key is not the key the batch was signed with' }]);
      expect(registered).toEqual({ success: true, processed: [`reg-1-${suffix}`, `stats-2-${suffix}`], errors: [] });
    });

    it('given an update_stats for another node, then it is this item’s error', async () => {
      const items = [{ id: `stats-other-${suffix}`, operation_type: 'update_stats', payload: { node_id: loneId, compute_info: {} } }];
      expect((await json(await signedPost(central, '/hierarchy/sync', batch(items)))).errors).toEqual([{ id: `stats-other-${suffix}`, error: 'update_stats: a node reports its own capacity only' }]);
    });

    it('given items that are not an array, then 400', async () => {
      expect((await signedPost(central, '/hierarchy/sync', { node_id: childId, items: 'x' })).status).toBe(400);
    });
  });

  describe('the sender', () => {
    it('given a post published on the child, when the sender runs, then the item is completed and the post lands on the parent', async () => {
      const postId = await publish(child, 'Up the hierarchy');
      const queued = await queue(child, admins.child, 'queued');
      expect(queued.data).toContainEqual(expect.objectContaining({ id: `sync_post:${postId}`, operation_type: 'sync_post', status: 'queued', retry_count: 0, max_retries: 5, target_tier: 'central' }));

      const pass = await child.app.get(SyncSender).send();
      await settled(child);

      expect(pass).toMatchObject({ completed: 1, failed: 0 });
      const item = (await queue(child, admins.child)).data.find((i: { id: string }) => i.id === `sync_post:${postId}`);
      expect(item).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
      expect((await feed(central)).find((p) => p.origin_post_id === postId)).toMatchObject({ origin_node_id: childId, via: 'sync', title: 'Up the hierarchy' });
    });

    it('given a parent that does not answer and a cap of 2, when 3 posts are published and the sender runs 5 times, then 1 is dropped and 2 are dead after 5 retries', async () => {
      for (const title of ['One', 'Two', 'Three']) await publish(lone, title);
      expect((await queue(lone, admins.lone)).meta.counts).toMatchObject({ queued: 2, dropped: 1 });

      for (let i = 1; i <= 4; i++) {
        await lone.app.get(SyncSender).send();
        await settled(lone);
        expect((await queue(lone, admins.lone, 'failed')).data.map((d: { retry_count: number }) => d.retry_count)).toEqual([i, i]);
      }
      await lone.app.get(SyncSender).send();
      await settled(lone);

      const after = await queue(lone, admins.lone);
      expect(after.meta.counts).toMatchObject({ queued: 0, failed: 0, in_progress: 0, dead: 2, dropped: 1 });
      expect(after.data).toEqual([expect.objectContaining({ status: 'dead', retry_count: 5, error_message: expect.any(String) }), expect.objectContaining({ status: 'dead', retry_count: 5 })]);
      expect(await lone.app.get(SyncSender).send()).toMatchObject({ batches: 0, sent: 0 });
    });

    it('given a non-admin, when reading the queue, then 403; given an unknown status, then 400', async () => {
      const user = await signUp(child, { prefix: 'syncuser' });
      expect((await child.request('GET', `${P}/sync/queue`, { token: user.token })).status).toBe(403);
      expect((await child.request('GET', `${P}/sync/queue?status=lost`, { token: admins.child })).status).toBe(400);
    });
  });

  describe('federation between peers', () => {
    it('given a post pushed to the inbox, then it is stored once', async () => {
      const post = { id: `inbox-${suffix}`, title: 'Pushed', content: 'to the inbox' };
      const first = await json(await signedPost(central, '/federation/inbox', post));
      expect(first).toEqual({ success: true, federated_post_id: expect.stringMatching(/^fp_[0-9a-f]{24}$/), created: true });
      const again = await json(await signedPost(central, '/federation/inbox', post));
      expect(again).toEqual({ ...first, created: false });
    });

    it('given an unsigned inbox post, then 401', async () => {
      expect((await central.request('POST', `${P}/federation/inbox`, { body: { id: 'x', title: 'unsigned' } })).status).toBe(401);
    });

    it('given the child’s outbox, then its recent posts come signed by its key', async () => {
      await publish(child, 'In the outbox');
      const res = await child.request('GET', `${P}/federation/outbox?limit=5`);
      expect(res.body).toMatchObject({ success: true, node_id: childId, public_key: childKey.publicKeyHex, posts: expect.any(Array) });
      expect(res.body.posts[0]).toMatchObject({ title: 'In the outbox', signature: expect.stringMatching(/^[0-9a-f]{128}$/) });
    });

    it('given an admin pulls the child’s outbox, then the new posts are stored; pulled again, none are new', async () => {
      const postId = await publish(child, 'Pulled across');
      const first = await central.request('POST', `${P}/federation/pull`, { token: admins.central, body: { peer_url: child.url, limit: 20 } });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ success: true, rejected: 0 });
      expect(first.body.new_posts).toBeGreaterThanOrEqual(1);
      expect((await feed(central)).find((p) => p.origin_post_id === postId)).toMatchObject({ via: 'pull', signed: true, origin_node_id: childId });

      const second = await central.request('POST', `${P}/federation/pull`, { token: admins.central, body: { peer_url: child.url } });
      expect(second.body).toEqual({ success: true, new_posts: 0, rejected: 0 });
    });

    it('given a peer whose key is not registered here, when pulled, then 400 and nothing stored', async () => {
      const res = await central.request('POST', `${P}/federation/pull`, { token: admins.central, body: { peer_url: lone.url } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Peer node is not registered');
    });

    it('given a peer that does not answer, when pulled, then 400 saying why', async () => {
      const res = await central.request('POST', `${P}/federation/pull`, { token: admins.central, body: { peer_url: 'http://127.0.0.1:1' } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/Could not read the peer's outbox/);
    });

    it('given a non-admin, when pulling or following, then 403', async () => {
      const user = await signUp(central, { prefix: 'feduser' });
      expect((await central.request('POST', `${P}/federation/pull`, { token: user.token, body: { peer_url: child.url } })).status).toBe(403);
      expect((await central.request('POST', `${P}/federation/follow`, { token: user.token, body: { peer_node_id: childId, peer_url: child.url } })).status).toBe(403);
    });

    it('given central follows the child, then the child is told (signed) and lists central as a follower and a peer; unfollowed, central follows nobody', async () => {
      const res = await central.request('POST', `${P}/federation/follow`, { token: admins.central, body: { peer_node_id: childId, peer_url: child.url } });
      expect(res.body).toEqual({ success: true, created: true, notified: true });
      expect((await central.request('POST', `${P}/federation/follow`, { token: admins.central, body: { peer_node_id: childId, peer_url: child.url } })).body.created).toBe(false);

      expect((await central.request('GET', `${P}/federation/following`)).body).toEqual({ success: true, data: [expect.objectContaining({ peer_node_id: childId, peer_url: child.url })], count: 1 });
      expect((await child.request('GET', `${P}/federation/followers`)).body).toMatchObject({ success: true, data: [{ follower_node_id: centralId }], count: 1 });
      expect((await child.request('GET', `${P}/peers`)).body.peers.map((p: { node_id: string }) => p.node_id)).toContain(centralId);

      expect((await central.request('POST', `${P}/federation/unfollow`, { token: admins.central, body: { peer_node_id: childId } })).body).toEqual({ success: true });
      expect((await central.request('GET', `${P}/federation/following`)).body).toEqual({ success: true, data: [], count: 0 });
    });

    it('given a follow notification naming another node than the signer, then 403', async () => {
      const res = await signedPost(central, '/federation/follow-notification', { follower_node_id: centralId, follower_url: child.url });
      expect(res.status).toBe(403);
    });
  });

  describe('peers', () => {
    const announcement = { node_id: childId, url: 'http://127.0.0.1:6999', name: 'child node', tier: 'flat', has_gpu: true, vram_free_gb: 12, tasks: ['stt', 'chat'] };

    it('given the child announces itself, then it is new the first time, listed, and the best endpoint for stt', async () => {
      const first = await json(await signedPost(central, '/peers/announce', announcement));
      expect(first).toEqual({ success: true, is_new: expect.any(Boolean), node_id: centralId, name: expect.any(String) });
      const again = await json(await signedPost(central, '/peers/announce', announcement));
      expect(again.is_new).toBe(false);

      const peers = (await central.request('GET', `${P}/peers`)).body;
      expect(peers).toMatchObject({ success: true, node_id: centralId });
      expect(peers.peers).toContainEqual(expect.objectContaining({ node_id: childId, url: 'http://127.0.0.1:6999', has_gpu: true, tasks: ['chat', 'stt'], source: 'announced' }));

      const best = (await central.request('GET', `${P}/peers/best-endpoint?task=stt`)).body;
      expect(best).toMatchObject({ success: true, node_id: childId, source: 'lan', url: 'http://127.0.0.1:6999', has_gpu: true, vram_free_gb: 12 });
      expect((await central.request('GET', `${P}/peers/best-endpoint`)).body).toMatchObject({ source: 'local', node_id: centralId });
      expect((await central.request('GET', `${P}/peers/best-endpoint?task=fly`)).status).toBe(400);
    });

    it('given an announcement of another node than the signer, then 403', async () => {
      expect((await signedPost(central, '/peers/announce', { ...announcement, node_id: 'someone-else' })).status).toBe(403);
    });

    it('given an exchange, then the unknown listed peers are learned, the sender’s announcement stands and this node’s peers come back without the sender', async () => {
      const res = await json(
        await signedPost(central, '/peers/exchange', { sender: { node_id: childId, url: 'http://127.0.0.1:6999' }, peers: [{ node_id: `third-${suffix}`, url: 'http://192.168.7.7:6777', tasks: ['tts'] }, { bogus: true }] }),
      );
      expect(res).toMatchObject({ success: true, node_id: centralId });
      expect(res.peers.map((p: { node_id: string }) => p.node_id)).not.toContain(childId);
      expect(res.peers).toContainEqual(expect.objectContaining({ node_id: `third-${suffix}`, source: 'exchange' }));
      // the sender's own announcement stands
      expect((await central.request('GET', `${P}/peers`)).body.peers).toContainEqual(expect.objectContaining({ node_id: childId, has_gpu: true, tasks: ['chat', 'stt'], source: 'announced' }));
    });

    it('given the health and the contribution, then the child counts as a fresh peer and a contributor', async () => {
      const health = (await central.request('GET', `${P}/peers/health`)).body;
      expect(health).toMatchObject({ success: true, node_id: centralId, peers: { total: expect.any(Number), fresh: expect.any(Number) }, sync: { parent_url: null } });
      expect(health.peers.fresh).toBeGreaterThanOrEqual(2);
      const contribution = (await central.request('GET', `${P}/federation/contribution`)).body;
      expect(contribution.success).toBe(true);
      expect(contribution.data[0]).toMatchObject({ node_id: childId });
      expect(contribution.data[0].posts_shared).toBeGreaterThanOrEqual(3);
      expect(contribution.data[0].items_synced).toBeGreaterThanOrEqual(3);
    });

    it('given 11 signed announcements and exchanges from one IP within a minute, then the 11th is refused with 429', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = i % 2 === 0 ? await signedPost(lone, '/peers/announce', announcement) : await signedPost(lone, '/peers/exchange', { sender: { node_id: childId, url: 'http://127.0.0.1:6999' }, peers: [] });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses[10]).toBe(429);
    });

    it('given concurrent announcements from one IP, then no more than 10 pass', async () => {
      const other = await startTestApp(nodeEnv(`other-${suffix}`, NodeKey.generate(), [[childId, childKey]]));
      try {
        const statuses = (await Promise.all(Array.from({ length: 15 }, () => signedPost(other, '/peers/announce', announcement)))).map((r) => r.status);
        expect(statuses.filter((s) => s === 200)).toHaveLength(10);
        expect(statuses.filter((s) => s === 429)).toHaveLength(5);
      } finally {
        await other.close();
      }
    });
  });
});
