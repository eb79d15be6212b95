/**
 * The social platform's accounts side over HTTP (social-routes §1 remainder,
 * §2, §11, §12): refresh rotation, api_tokens, bans, profiles, handles, the
 * follow graph, notifications, admin of accounts, and their races.
 */
import { request as httpRequest } from 'node:http';
import { READ_STORE, type ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { recordPeerNode } from '../../src/projections/compute/peer-nodes.read-model';
import { NodeKey } from '../../src/infrastructure/node-identity/node-key';
import { signValue } from '../../src/modules/common/node-signing-key';
import { settled, startTestApp, type TestApp, uniqueName } from '../support/app';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

const ADMIN = uniqueName('sadmin');
const PASSWORD = 'correct horse battery';

interface Registered {
  id: string;
  username: string;
  token: string;
  refresh_token: string;
  api_token: string;
}

describe('social accounts', () => {
  let t: TestApp;
  let admin: Registered;

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN });
    admin = await register(ADMIN);
  });
  afterAll(() => t.close());

  async function register(username = uniqueName('sa')): Promise<Registered> {
    const res = await t.request('POST', '/api/social/auth/register', { body: { username, email: `${username}@example.com`, password: PASSWORD } });
    expect(res.status).toBe(201);
    return res.body.data;
  }

  describe('refresh tokens (rotation)', () => {
    it('given a login, when its refresh token is exchanged, then a working access token and a new refresh token come back', async () => {
      const ann = await register();
      const login = await t.request('POST', '/api/social/auth/login', { body: { username: ann.username, password: PASSWORD } });
      const res = await t.request('POST', '/social/auth/refresh', { body: { refresh_token: login.body.data.refresh_token } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: 'bearer', expires_in: 86400 });
      expect((await t.request('GET', '/api/social/auth/me', { token: res.body.data.access_token })).body.data.id).toBe(ann.id);
    });

    it('given a refresh token that was used, when it is used again, then 401 and its successor still works', async () => {
      const bob = await register();
      const first = await t.request('POST', '/api/social/auth/refresh', { body: { refresh_token: bob.refresh_token } });
      const again = await t.request('POST', '/api/social/auth/refresh', { body: { refresh_token: bob.refresh_token } });
      expect(again.status).toBe(401);
      expect(again.body.error).toBe('Invalid or expired refresh token');
      expect((await t.request('POST', '/api/social/auth/refresh', { body: { refresh_token: first.body.data.refresh_token } })).status).toBe(200);
    });

    it('given one refresh token used twice at once, then exactly one exchange succeeds', async () => {
      const cat = await register();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => t.request('POST', '/api/social/auth/refresh', { body: { refresh_token: cat.refresh_token } })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
    });

    it('given an access token or garbage in place of a refresh token, then 401; a refresh token is no access token', async () => {
      const dan = await register();
      expect((await t.request('POST', '/api/social/auth/refresh', { body: { refresh_token: dan.token } })).status).toBe(401);
      expect((await t.request('POST', '/api/social/auth/refresh', { body: { refresh_token: 'garbage' } })).status).toBe(401);
      expect((await t.request('POST', '/api/social/auth/refresh', { body: {} })).status).toBe(400);
      expect((await t.request('GET', '/api/social/auth/me', { token: dan.refresh_token })).status).toBe(401);
    });
  });

  describe('api_token', () => {
    it('given a registration, then its api_token works wherever a JWT does, until revoked', async () => {
      const eve = await register();
      expect(eve.api_token).toMatch(/^at_/);
      expect((await t.request('GET', '/api/social/auth/me', { token: eve.api_token })).body.data.id).toBe(eve.id);
      const revoked = await t.request('DELETE', '/api/social/auth/api-token', { token: eve.token });
      expect(revoked.body.data).toEqual({ revoked: 1 });
      expect((await t.request('GET', '/api/social/auth/me', { token: eve.api_token })).status).toBe(401);
      const fresh = await t.request('POST', '/api/social/auth/api-token', { token: eve.token });
      expect(fresh.status).toBe(201);
      expect((await t.request('GET', '/api/social/auth/me', { token: fresh.body.data.api_token })).status).toBe(200);
    });
  });

  describe('verify-user', () => {
    it('given an operator (the original’s regional), then a user is verified; a plain user gets 403 `Regional access required`', async () => {
      const op = await register();
      const ava = await register();
      await t.request('PATCH', `/api/social/admin/users/${op.id}`, { token: admin.token, body: { role: 'regional' } });
      const res = await t.request('GET', `/api/social/auth/verify-user?user_id=${ava.id}`, { token: op.token });
      expect(res.body.data).toEqual({ user_id: ava.id, username: ava.username, handle: null, role: 'user', is_banned: false });
      const refused = await t.request('GET', `/api/social/auth/verify-user?user_id=${ava.id}`, { token: ava.token });
      expect([refused.status, refused.body.error]).toEqual([403, 'Regional access required']);
      expect((await t.request('GET', '/api/social/auth/verify-user', { token: admin.token })).status).toBe(400);
      expect((await t.request('GET', '/api/social/auth/verify-user?user_id=nobody', { token: admin.token })).status).toBe(404);
    });
  });

  describe('sync-user (node to node)', () => {
    const peer = NodeKey.generate();
    const signed = (data: Record<string, unknown>, key = peer) => signValue(key, data);
    const report = (nodeId: string, publicKey: string, position: number) => ({
      node_id: nodeId,
      node_tier: 'regional',
      cause_alignment: 'none',
      electricity_rate_kwh: 0.1,
      public_key: publicKey,
      position,
      seen_at: new Date().toISOString(),
    });

    beforeAll(async () => {
      const store = t.app.get<ReadStore>(READ_STORE);
      await recordPeerNode(store, report('peer-one', peer.publicKeyHex, 1));
      // a later report naming another key does not replace the pinned one
      const other = NodeKey.generate().publicKeyHex;
      await recordPeerNode(store, report('peer-one', other, 2));
    });

    it('given a profile signed with the peer’s pinned key, then the user is synced, never with a privileged role', async () => {
      const userData = { id: `remote-${uniqueName()}`, username: uniqueName('remote'), display_name: 'Remote Ruth', role: 'central' };
      const res = await t.request('POST', '/api/social/auth/sync-user', { body: { node_id: 'peer-one', user_data: userData, signature: signed(userData) } });
      expect(res.body).toEqual({ success: true, data: { synced: true } });
      expect((await t.request('GET', `/api/social/users/${userData.id}`)).body.data).toMatchObject({
        username: userData.username,
        display_name: 'Remote Ruth',
        role: 'user',
        is_admin: false,
      });
    });

    it('given a bad signature, an unknown node or another key named, then 401 `unverified node identity`', async () => {
      const userData = { id: `remote-${uniqueName()}`, username: uniqueName('remote') };
      const forged = signed(userData, NodeKey.generate());
      for (const body of [
        { node_id: 'peer-one', user_data: userData, signature: forged },
        { node_id: 'peer-unknown', user_data: userData, signature: signed(userData) },
        { node_id: 'peer-one', node_public_key: 'AAAA', user_data: userData, signature: signed(userData) },
      ]) {
        const res = await t.request('POST', '/api/social/auth/sync-user', { body });
        expect([res.status, res.body.error]).toEqual([401, 'unverified node identity']);
      }
    });

    it('given a profile naming an account made on this node, then 409 and the account is untouched', async () => {
      const local = await register();
      const userData = { id: local.id, username: local.username, display_name: 'Hijacked' };
      const res = await t.request('POST', '/api/social/auth/sync-user', { body: { node_id: 'peer-one', user_data: userData, signature: signed(userData) } });
      expect(res.status).toBe(409);
      expect((await t.request('GET', `/api/social/users/${local.id}`)).body.data.display_name).toBe(local.username);
    });
  });

  describe('bans', () => {
    it('given a banned user, then the JWT, the api_token, an API key and the refresh token are all refused with 401 `Account banned`; unbanned, they work again', async () => {
      const fay = await register();
      const key = await t.request('POST', '/api/v1/intelligence/keys', { token: fay.token, body: { name: 'k', tier: 'free' } });
      const ban = await t.request('POST', `/api/social/admin/users/${fay.id}/ban`, { token: admin.token });
      expect(ban.body).toEqual({ success: true, data: { banned: true } });
      for (const credential of [fay.token, fay.api_token, key.body.data.key]) {
        const res = await t.request('GET', '/api/social/auth/me', { token: credential });
        expect([res.status, res.body.error]).toEqual([401, 'Account banned']);
      }
      expect((await t.request('POST', '/api/social/auth/refresh', { body: { refresh_token: fay.refresh_token } })).body.error).toBe('Account banned');
      expect((await t.request('POST', '/api/social/auth/login', { body: { username: fay.username, password: PASSWORD } })).status).toBe(401);
      expect((await t.request('GET', '/api/social/users', { token: fay.token })).status).toBe(200); // opt routes read a refused credential as anonymous
      await t.request('DELETE', `/social/moderation/ban/${fay.id}`, { token: admin.token });
      expect((await t.request('GET', '/api/social/auth/me', { token: fay.token })).status).toBe(200);
    });

    it('given a plain user or a moderator, when banning, then 403 `Admin access required`', async () => {
      const gus = await register();
      const mod = await register();
      await t.request('PATCH', `/api/social/admin/users/${mod.id}`, { token: admin.token, body: { role: 'regional' } });
      for (const caller of [gus, mod]) {
        const res = await t.request('POST', `/api/social/admin/users/${gus.id}/ban`, { token: caller.token });
        expect([res.status, res.body.error]).toEqual([403, 'Admin access required']);
      }
    });
  });

  describe('profiles', () => {
    it('given a user, when another user patches the profile, then 403; the owner and an admin edit the TARGET', async () => {
      const hal = await register();
      const ivy = await register();
      const refused = await t.request('PATCH', `/api/social/users/${hal.id}`, { token: ivy.token, body: { bio: 'x' } });
      expect([refused.status, refused.body.error]).toEqual([403, "Cannot edit another user's profile"]);
      const own = await t.request('PATCH', `/api/social/users/${hal.id}`, { token: hal.token, body: { bio: '<b>hi</b>', display_name: 'Hal' } });
      expect(own.body.data).toMatchObject({ id: hal.id, bio: '&lt;b&gt;hi&lt;/b&gt;', display_name: 'Hal' });
      const byAdmin = await t.request('PATCH', `/api/social/users/${hal.username}`, { token: admin.token, body: { bio: 'set by admin' } });
      expect(byAdmin.body.data.id).toBe(hal.id);
      expect((await t.request('GET', `/social/users/${hal.id}`)).body.data.bio).toBe('set by admin');
      expect((await t.request('GET', `/social/users/${admin.id}`)).body.data.bio).toBe('');
    });

    it('given an unknown id, then 404 `User not found`', async () => {
      const res = await t.request('GET', '/api/social/users/nobody-at-all');
      expect([res.status, res.body.error]).toEqual([404, 'User not found']);
    });

    it('given users, when listing by type, then banned users are left out and each has the User record', async () => {
      const jim = await register();
      await t.request('POST', `/api/social/admin/users/${jim.id}/ban`, { token: admin.token });
      const res = await t.request('GET', '/api/social/users?type=human&limit=100');
      expect(res.body.meta).toMatchObject({ limit: 100, offset: 0 });
      const ids = res.body.data.map((u: { id: string }) => u.id);
      expect(ids).toContain(admin.id);
      expect(ids).not.toContain(jim.id);
      expect((await t.request('GET', '/api/social/users?limit=abc')).status).toBe(400);
    });
  });

  describe('handles', () => {
    it('given a valid free handle, when claimed, then it is lower-cased, checkable, and another user claiming it gets 409', async () => {
      const kim = await register();
      const lee = await register();
      const handle = `h${Math.random().toString(36).replace(/[^a-z]/g, '').slice(0, 8)}`;
      const res = await t.request('PATCH', `/api/social/users/${kim.id}/handle`, { token: kim.token, body: { handle: handle.toUpperCase() } });
      expect(res.body.data).toEqual({ handle });
      expect((await t.request('GET', `/api/social/handles/check?handle=${handle}`)).body.data).toEqual({ available: false, handle });
      const taken = await t.request('PATCH', `/api/social/users/${lee.id}/handle`, { token: lee.token, body: { handle } });
      expect([taken.status, taken.body.error]).toEqual([409, 'Handle already taken']);
    });

    it('given bad handles, then the route refuses with 400 and the check answers available false with the reason', async () => {
      const mo = await register();
      for (const bad of ['a', 'abc1', 'admin', 'waytoolonghandlex']) {
        expect((await t.request('PATCH', `/api/social/users/${mo.id}/handle`, { token: mo.token, body: { handle: bad } })).status).toBe(400);
        const check = await t.request('GET', `/api/social/handles/check?handle=${bad}`);
        expect(check.body.data).toMatchObject({ available: false, error: expect.any(String) });
      }
      expect((await t.request('GET', '/api/social/handles/check')).status).toBe(400);
    });

    it('given many users claiming one handle at once, then exactly one gets it', async () => {
      const users = await Promise.all(Array.from({ length: 6 }, () => register()));
      const handle = `race${Math.random().toString(36).replace(/[^a-z]/g, '').slice(0, 6)}`;
      const results = await Promise.all(users.map((u) => t.request('PATCH', `/api/social/users/${u.id}/handle`, { token: u.token, body: { handle } })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    });
  });

  describe('follows and notifications', () => {
    it('given a follow, then it is idempotent, counted once, listed both ways, notified, and undone by an unfollow', async () => {
      const ned = await register();
      const ola = await register();
      expect((await t.request('POST', `/api/social/users/${ola.username}/follow`, { token: ned.token })).body.data).toEqual({ followed: true });
      expect((await t.request('POST', `/api/social/users/${ola.id}/follow`, { token: ned.token })).body.data).toEqual({ followed: false });
      expect((await t.request('GET', `/api/social/users/${ola.id}`, { token: ned.token })).body.data.is_following).toBe(true);
      expect((await t.request('GET', `/api/social/users/${ola.id}/followers`)).body.data.map((u: { id: string }) => u.id)).toEqual([ned.id]);
      expect((await t.request('GET', `/api/social/users/${ned.id}/following`)).body.data.map((u: { id: string }) => u.id)).toEqual([ola.id]);
      const inbox = await t.request('GET', '/api/social/notifications?unread=true', { token: ola.token });
      expect(inbox.body.data).toEqual([
        expect.objectContaining({ user_id: ola.id, type: 'follow', source_user_id: ned.id, message: `${ned.username} started following you`, is_read: false }),
      ]);
      expect((await t.request('DELETE', `/api/social/users/${ola.id}/follow`, { token: ned.token })).body.data).toEqual({ unfollowed: true });
      expect((await t.request('GET', `/api/social/users/${ola.id}/followers`)).body.meta.total).toBe(0);
    });

    it('given many concurrent follows of one pair, then the follower count goes up by one', async () => {
      const pam = await register();
      const quinn = await register();
      await Promise.all(Array.from({ length: 8 }, () => t.request('POST', `/api/social/users/${quinn.id}/follow`, { token: pam.token })));
      await settled(t);
      expect((await t.request('GET', `/api/social/users/${quinn.id}/followers`)).body.meta.total).toBe(1);
      const users = t.app.get<ReadStore>(READ_STORE).collection('users');
      expect(await users.findOne({ _id: quinn.id })).toMatchObject({ follower_count: 1 });
      expect(await users.findOne({ _id: pam.id })).toMatchObject({ following_count: 1 });
      const notes = await t.request('GET', '/api/social/notifications', { token: quinn.token });
      expect(notes.body.meta.total).toBe(1);
    });

    it('given an open SSE stream, when someone follows its user, then the notification arrives on com.svc.social', async () => {
      const uri = await register();
      const vera = await register();
      const { hostname, port } = new URL(t.url);
      let received = '';
      const req = httpRequest({
        hostname,
        port,
        path: '/api/social/encounter/stream',
        headers: { accept: 'text/event-stream', authorization: `Bearer ${uri.token}` },
      });
      req.on('response', (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (received += chunk));
        res.on('error', () => undefined);
      });
      req.on('error', () => undefined);
      req.end();
      try {
        await eventually('the stream to connect', () => received.includes(': connected'));
        await t.request('POST', `/api/social/users/${uri.id}/follow`, { token: vera.token });
        await eventually('the notification on the stream', () => received.includes('event: com.svc.social'));
        const line = received.split('\n').find((l) => l.startsWith('data: ') && l.includes(`com.svc.social.${uri.id}`))!;
        expect(JSON.parse(line.slice(6)).payload).toMatchObject({
          type: 'notification',
          notification_type: 'follow',
          user_id: uri.id,
          source_user_id: vera.id,
          is_read: false,
        });
      } finally {
        req.destroy();
      }
    });

    it('given following yourself, then 400 `Cannot follow yourself`', async () => {
      const rae = await register();
      const res = await t.request('POST', `/api/social/users/${rae.id}/follow`, { token: rae.token });
      expect([res.status, res.body.error]).toEqual([400, 'Cannot follow yourself']);
    });

    it('given notifications, when some are marked read and then all, then only the caller’s change', async () => {
      const sam = await register();
      const [a, b] = await Promise.all([register(), register()]);
      await t.request('POST', `/api/social/users/${sam.id}/follow`, { token: a.token });
      await t.request('POST', `/api/social/users/${sam.id}/follow`, { token: b.token });
      const all = (await t.request('GET', '/api/social/notifications', { token: sam.token })).body.data;
      const marked = await t.request('POST', '/api/social/notifications/read', { token: a.token, body: { ids: [all[0].id] } });
      expect(marked.body.data).toEqual({ marked: 1 });
      expect((await t.request('GET', '/api/social/notifications?unread=true', { token: sam.token })).body.meta.total).toBe(2);
      await t.request('POST', '/api/social/notifications/read', { token: sam.token, body: { ids: [all[0].id] } });
      expect((await t.request('GET', '/api/social/notifications?unread=true', { token: sam.token })).body.meta.total).toBe(1);
      expect((await t.request('POST', '/api/social/notifications/read-all', { token: sam.token })).body.data).toEqual({ marked_all: true });
      expect((await t.request('GET', '/api/social/notifications?unread=true', { token: sam.token })).body.meta.total).toBe(0);
    });
  });

  describe('notifications from the content context', () => {
    it('given a comment, a reply and upvotes on others’ content, then each author is told once, and a downvote tells no one', async () => {
      const [ada, ben, cy] = await Promise.all([register(), register(), register()]);
      const post = await t.request('POST', '/api/social/posts', { token: ada.token, body: { title: 'Notify me' } });
      const postId = post.body.data.id;
      const comment = await t.request('POST', `/api/social/posts/${postId}/comments`, { token: ben.token, body: { content: 'first' } });
      await t.request('POST', `/api/social/comments/${comment.body.data.id}/reply`, { token: cy.token, body: { content: 'second' } });
      await t.request('POST', `/api/social/posts/${postId}/upvote`, { token: ben.token });
      await t.request('POST', `/api/social/comments/${comment.body.data.id}/downvote`, { token: cy.token });
      const types = async (user: Registered) =>
        (await t.request('GET', '/api/social/notifications', { token: user.token })).body.data.map((n: { type: string; source_user_id: string }) => [n.type, n.source_user_id]).sort();
      expect(await types(ada)).toEqual(
        [
          ['comment', ben.id],
          ['comment', cy.id],
          ['upvote', ben.id],
        ].sort(),
      );
      expect(await types(ben)).toEqual([['reply', cy.id]]);
    });
  });

  describe('per-user reads over the other contexts', () => {
    it('given a user with no content yet, then posts, comments and skills are empty and karma is zero', async () => {
      const tom = await register();
      expect((await t.request('GET', `/api/social/users/${tom.id}/posts`)).body).toEqual({
        success: true,
        data: [],
        meta: { total: 0, limit: 25, offset: 0, has_more: false },
      });
      expect((await t.request('GET', `/api/social/users/${tom.id}/comments`)).body.data).toEqual([]);
      expect((await t.request('GET', `/api/social/users/${tom.id}/skills`)).body.data).toEqual([]);
      expect((await t.request('GET', `/api/social/users/${tom.id}/karma`)).body.data).toEqual({
        total: 0,
        post_karma: 0,
        comment_karma: 0,
        task_karma: 0,
        completed_tasks: 0,
      });
    });
  });

  describe('per-user reads over documents the content and agents contexts write', () => {
    it('given posts, comments and badges in their collections, then the user routes page them newest first without deleted or hidden ones', async () => {
      const una = await register();
      const store = t.app.get<ReadStore>(READ_STORE);
      const post = (id: string, created_at: string, extra: Record<string, unknown> = {}) => ({
        _id: id,
        author_id: una.id,
        title: `<i>${id}</i>`,
        content: 'text',
        score: 1,
        is_hidden: false,
        is_deleted: false,
        created_at,
        ...extra,
      });
      for (const doc of [
        post('p1', '2026-11-23T10:00:00'),
        post('p2', '2026-11-23T11:00:00'),
        post('p3', '2026-11-23T12:00:00', { is_hidden: true }),
        post('p4', '2026-11-23T13:00:00', { is_deleted: true }),
      ]) {
        await store.collection('posts').insertOne(doc);
      }
      for (const doc of [
        { _id: 'c1', post_id: 'p1', author_id: una.id, content: 'a', is_deleted: false, is_hidden: false, created_at: '2026-11-23T10:00:00' },
        { _id: 'c2', post_id: 'p1', author_id: una.id, content: '[deleted]', is_deleted: true, is_hidden: false, created_at: '2026-11-23T11:00:00' },
      ]) {
        await store.collection('comments').insertOne(doc);
      }
      await store.collection('skill_badges').insertOne({
        _id: 'b1',
        user_id: una.id,
        skill_name: 'search',
        proficiency: 0.8,
        usage_count: 12,
        success_rate: 0.9,
        badge_level: 'gold',
        awarded_at: '2026-11-23T10:00:00',
      });
      const posts = await t.request('GET', `/api/social/users/${una.id}/posts?limit=1`);
      expect(posts.body.meta).toEqual({ total: 2, limit: 1, offset: 0, has_more: true });
      expect(posts.body.data).toEqual([expect.objectContaining({ id: 'p2', title: '&lt;i&gt;p2&lt;/i&gt;', author: expect.objectContaining({ id: una.id }) })]);
      expect((await t.request('GET', `/api/social/users/${una.id}/comments`)).body.data.map((c: { id: string }) => c.id)).toEqual(['c1']);
      expect((await t.request('GET', `/api/social/users/${una.id}/skills`)).body.data).toEqual([
        { id: 'b1', skill_name: 'search', proficiency: 0.8, usage_count: 12, success_rate: 0.9, badge_level: 'gold', awarded_at: '2026-11-23T10:00:00' },
      ]);
      const exported = await t.request('GET', `/api/social/users/${una.id}/data/export`, { token: una.token });
      expect(exported.body.data.posts.map((p: { id: string }) => p.id)).toEqual(['p1', 'p2', 'p3', 'p4']);
    });
  });

  describe('data export and deletion', () => {
    it('given another user, when exporting, then 403; the owner gets the data with the follow ids', async () => {
      const uma = await register();
      const vic = await register();
      await t.request('POST', `/api/social/users/${vic.id}/follow`, { token: uma.token });
      const refused = await t.request('GET', `/api/social/users/${uma.id}/data/export`, { token: vic.token });
      expect([refused.status, refused.body.error]).toEqual([403, "Cannot export another user's data"]);
      const res = await t.request('GET', `/api/social/users/${uma.id}/data/export`, { token: uma.token });
      expect(res.body.data).toMatchObject({ user: { id: uma.id, email: `${uma.username}@example.com` }, posts: [], comments: [], following: [vic.id], followers: [] });
    });

    it('given a deletion, then the account is anonymised, its credentials stop, its name and e-mail are free again, and notifications naming it are rewritten', async () => {
      const wes = await register();
      const xia = await register();
      await t.request('PATCH', `/api/social/users/${wes.id}`, { token: wes.token, body: { bio: 'private', avatar_url: 'https://example.com/a.png' } });
      await t.request('POST', `/api/social/users/${xia.id}/follow`, { token: wes.token });
      const res = await t.request('DELETE', `/api/social/users/${wes.id}/data`, { token: wes.token });
      expect(res.body.data).toMatchObject({ anonymized: true, user_id: wes.id });
      await settled(t);
      const profile = (await t.request('GET', `/api/social/users/${wes.id}`)).body.data;
      expect(profile).toMatchObject({ username: expect.stringMatching(/^deleted_[0-9a-f]{12}$/), display_name: 'Deleted User', bio: '', avatar_url: null, handle: null });
      expect((await t.request('GET', '/api/social/auth/me', { token: wes.token })).status).toBe(401);
      expect((await t.request('GET', '/api/social/auth/me', { token: wes.api_token })).status).toBe(401);
      const note = (await t.request('GET', '/api/social/notifications', { token: xia.token })).body.data[0];
      expect(note.message).toBe('Deleted User started following you');
      const again = await t.request('POST', '/api/social/auth/register', {
        body: { username: wes.username, email: `${wes.username}@example.com`, password: PASSWORD },
      });
      expect(again.status).toBe(201);
    });
  });

  describe('a guest’s deletion', () => {
    it('given an erased guest, then its device may register a new guest', async () => {
      const device = uniqueName('device');
      const first = await t.request('POST', '/api/social/auth/guest-register', { body: { guest_name: 'Gil', device_id: device } });
      await t.request('DELETE', `/api/social/users/${first.body.data.user.id}/data`, { token: first.body.data.token });
      const again = await t.request('POST', '/api/social/auth/guest-register', { body: { guest_name: 'Gil', device_id: device } });
      expect(again.status).toBe(201);
      expect(again.body.data.user.id).not.toBe(first.body.data.user.id);
    });
  });

  describe('admin users and logs', () => {
    it('given an admin, then the user list carries is_banned and email, newest first', async () => {
      const yan = await register();
      const res = await t.request('GET', '/api/social/admin/users?limit=1', { token: admin.token });
      expect(res.body.data).toEqual([expect.objectContaining({ id: expect.any(String), is_banned: expect.any(Boolean), email: expect.any(String) })]);
      expect(res.body.meta.limit).toBe(1);
      void yan;
    });

    it('given a role set by an admin, then the flags follow it', async () => {
      const zed = await register();
      const res = await t.request('PATCH', `/api/social/admin/users/${zed.id}`, { token: admin.token, body: { role: 'central', is_verified: true } });
      expect(res.body.data).toMatchObject({ role: 'admin', is_admin: true, is_moderator: true, is_verified: true, is_banned: false });
      const back = await t.request('PATCH', `/api/social/admin/users/${zed.id}`, { token: admin.token, body: { role: 'flat' } });
      expect(back.body.data).toMatchObject({ role: 'user', is_admin: false, is_moderator: false });
      expect((await t.request('PATCH', `/api/social/admin/users/${zed.id}`, { token: admin.token, body: { role: 'emperor' } })).status).toBe(400);
    });

    it('given the logs route, then it answers a list and refuses a bad level', async () => {
      const res = await t.request('GET', '/api/social/admin/logs?limit=5&level=warn', { token: admin.token });
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body.data)).toBe(true);
      expect((await t.request('GET', '/api/social/admin/logs?level=loud', { token: admin.token })).status).toBe(400);
    });
  });
});
