/**
 * Posts, votes, comments and reports over HTTP (social-routes §4, §5, §12,
 * §21.4): the contract's texts, one vote per user and post under 20
 * concurrent up/down votes, karma and counts on the author's record, the
 * view counter, locks, soft deletes and moderation. One app for the file.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderAtom } from '../../src/modules/content/syndication';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { settled, signUp, startTestApp, type TestApp } from '../support/app';

jest.setTimeout(60_000);

const P = '/api/social';

describe('posts, votes and comments over HTTP', () => {
  let t: TestApp;
  let admin: User;
  let alice: User;
  let bob: User;

  interface User {
    id: string;
    token: string;
  }

  const publish = async (user: User, body: Record<string, unknown> = { title: 'Hello <b>world</b>', content: 'Body' }) => {
    const res = await t.request('POST', `${P}/posts`, { token: user.token, body });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; [k: string]: unknown };
  };
  const me = async (user: User) => (await t.request('GET', `${P}/auth/me`, { token: user.token })).body.data;

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: 'contentadmin', FEED_FETCH_ALLOW_PRIVATE: 'true' });
    admin = await signUp(t, { username: 'contentadmin' });
    alice = await signUp(t, { prefix: 'pc' });
    bob = await signUp(t, { prefix: 'pc' });
  });
  afterAll(async () => t?.close());

  describe('publishing', () => {
    it('given a title and content, when posting, then 201 with the Post record, its author, and escaped text', async () => {
      const post = await publish(alice);
      expect(post).toMatchObject({ title: 'Hello &lt;b&gt;world&lt;/b&gt;', content: 'Body', content_type: 'text', upvotes: 0, score: 0, author_id: alice.id });
      expect((post.author as { id: string }).id).toBe(alice.id);
    });

    it('given a caption instead of a title, when posting, then it is the title', async () => {
      expect((await publish(alice, { caption: 'From a phone' })).title).toBe('From a phone');
    });

    it.each([
      [{ content: 'x' }, 'title required'],
      [{ title: 'x'.repeat(301) }, 'Title too long (max 300 characters)'],
      [{ title: 'ok', content: 'x'.repeat(40_001) }, 'Content too long (max 40000 characters)'],
    ])('given %#, when posting, then 400 with the original text', async (body, error) => {
      const res = await t.request('POST', `${P}/posts`, { token: alice.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
    });

    it('given no token, when posting, then 401', async () => {
      expect((await t.request('POST', `${P}/posts`, { body: { title: 'x' } })).status).toBe(401);
    });

    it('given a post, when read twice by id under /social, then view_count counts each read', async () => {
      const post = await publish(alice);
      await t.request('GET', `/social/posts/${post.id}`);
      const res = await t.request('GET', `/social/posts/${post.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.view_count).toBe(2);
    });

    it('given an unknown id, when read, then 404 Post not found', async () => {
      const res = await t.request('GET', `${P}/posts/nope`);
      expect([res.status, res.body.error]).toEqual([404, 'Post not found']);
    });
  });

  describe('editing and deleting', () => {
    it('given another user’s post, when editing, then 403 with the original text', async () => {
      const post = await publish(alice);
      const res = await t.request('PATCH', `${P}/posts/${post.id}`, { token: bob.token, body: { title: 'mine' } });
      expect([res.status, res.body.error]).toEqual([403, "Cannot edit another user's post"]);
    });

    it('given own post, when editing, then the new title is served', async () => {
      const post = await publish(alice);
      const res = await t.request('PATCH', `${P}/posts/${post.id}`, { token: alice.token, body: { title: 'Edited' } });
      expect([res.status, res.body.data.title]).toEqual([200, 'Edited']);
    });

    it('given own post, when deleted, then it is 404 and the author’s post_count goes back down', async () => {
      const before = (await me(alice)).post_count;
      const post = await publish(alice);
      expect((await me(alice)).post_count).toBe(before + 1);
      const res = await t.request('DELETE', `${P}/posts/${post.id}`, { token: alice.token });
      expect(res.body).toEqual({ success: true, data: { deleted: true } });
      expect((await t.request('GET', `${P}/posts/${post.id}`)).status).toBe(404);
      expect((await me(alice)).post_count).toBe(before);
    });

    it('given another user’s post, when deleting, then 403', async () => {
      const post = await publish(alice);
      const res = await t.request('DELETE', `${P}/posts/${post.id}`, { token: bob.token });
      expect([res.status, res.body.error]).toEqual([403, "Cannot delete another user's post"]);
    });
  });

  describe('votes (§21.4)', () => {
    it('given a post, when bob upvotes, upvotes again, then downvotes, then voted, removed, voted with the scores', async () => {
      const post = await publish(alice);
      const vote = (dir: string) => t.request('POST', `${P}/posts/${post.id}/${dir}`, { token: bob.token });
      expect((await vote('upvote')).body.data).toEqual({ action: 'voted', score: 1 });
      expect((await vote('upvote')).body.data).toEqual({ action: 'removed', score: 0 });
      expect((await vote('downvote')).body.data).toEqual({ action: 'voted', score: -1 });
      expect((await vote('upvote')).body.data).toEqual({ action: 'changed', score: 1 });
      const read = await t.request('GET', `${P}/posts/${post.id}`, { token: bob.token });
      expect(read.body.data).toMatchObject({ upvotes: 1, downvotes: 0, score: 1, user_vote: 1 });
      const likes = await t.request('GET', `${P}/posts/${post.id}/likes`);
      expect(likes.body.data).toEqual([expect.objectContaining({ user_id: bob.id })]);
    });

    it('given 20 concurrent up and down votes by one user, then the post holds exactly that user’s last vote', async () => {
      const post = await publish(alice);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => t.request('POST', `${P}/posts/${post.id}/${i % 2 ? 'downvote' : 'upvote'}`, { token: bob.token })),
      );
      expect(results.every((r) => r.status === 200)).toBe(true);
      const read = (await t.request('GET', `${P}/posts/${post.id}`, { token: bob.token })).body.data;
      expect(read.upvotes + read.downvotes).toBeLessThanOrEqual(1);
      expect(read.score).toBe(read.user_vote);
      expect(read.score).toBe(read.upvotes - read.downvotes);
    });

    it('given 20 users upvoting one post at once, then 20 upvotes and the author’s karma rises by 20', async () => {
      const author = await signUp(t, { prefix: 'pc' });
      const post = await publish(author);
      const voters = await Promise.all(Array.from({ length: 20 }, () => signUp(t, { prefix: 'pc' })));
      await Promise.all(voters.map((v) => t.request('POST', `${P}/posts/${post.id}/upvote`, { token: v.token })));
      expect((await t.request('GET', `${P}/posts/${post.id}`)).body.data).toMatchObject({ upvotes: 20, score: 20 });
      expect((await me(author)).karma_score).toBe(20);
    });

    it('given no vote, when deleting the vote, then removed (idempotent)', async () => {
      const post = await publish(alice);
      const res = await t.request('DELETE', `${P}/posts/${post.id}/vote`, { token: bob.token });
      expect(res.body).toEqual({ success: true, data: { removed: true } });
    });

    it('given an unknown post, when upvoting, then 404 post not found', async () => {
      const res = await t.request('POST', `${P}/posts/nope/upvote`, { token: bob.token });
      expect([res.status, res.body.error]).toEqual([404, 'post not found']);
    });
  });

  describe('comments (§5)', () => {
    it('given a post, when commented and replied to, then the thread has depths 0 and 1 and the counts rise', async () => {
      const post = await publish(alice);
      const top = await t.request('POST', `${P}/posts/${post.id}/comments`, { token: bob.token, body: { content: 'first' } });
      expect([top.status, top.body.data.depth]).toEqual([201, 0]);
      const reply = await t.request('POST', `${P}/comments/${top.body.data.id}/reply`, { token: alice.token, body: { text: 'reply' } });
      expect([reply.status, reply.body.data.depth, reply.body.data.parent_id]).toEqual([201, 1, top.body.data.id]);
      const list = await t.request('GET', `${P}/posts/${post.id}/comments`);
      expect(list.body.data.map((c: { comment: string; parent_comment_id: unknown }) => [c.comment, c.parent_comment_id])).toEqual([
        ['first', 0],
        ['reply', top.body.data.id],
      ]);
      expect((await t.request('GET', `${P}/posts/${post.id}`)).body.data.comment_count).toBe(2);
    });

    it('given a locked post, when a user comments, then 403 Post is locked; the admin still may', async () => {
      const post = await publish(alice);
      expect((await t.request('POST', `${P}/posts/${post.id}/lock`, { token: bob.token })).status).toBe(403);
      expect((await t.request('POST', `${P}/posts/${post.id}/lock`, { token: admin.token })).body.data).toEqual({ locked: true });
      const refused = await t.request('POST', `${P}/posts/${post.id}/comments`, { token: bob.token, body: { content: 'x' } });
      expect([refused.status, refused.body.error]).toEqual([403, 'Post is locked']);
      expect((await t.request('POST', `${P}/posts/${post.id}/comments`, { token: admin.token, body: { content: 'x' } })).status).toBe(201);
    });

    it('given a comment, when its author deletes it, then it leaves the list; another user may not', async () => {
      const post = await publish(alice);
      const c = (await t.request('POST', `${P}/posts/${post.id}/comments`, { token: bob.token, body: { content: 'bye' } })).body.data;
      expect((await t.request('DELETE', `${P}/comments/${c.id}`, { token: alice.token })).status).toBe(403);
      expect((await t.request('DELETE', `${P}/comments/${c.id}`, { token: bob.token })).body.data).toEqual({ deleted: true });
      expect((await t.request('GET', `${P}/posts/${post.id}/comments`)).body.data).toEqual([]);
    });

    it('given a comment, when upvoted by alice, then voted with score 1 and the commenter’s karma rises', async () => {
      const commenter = await signUp(t, { prefix: 'pc' });
      const post = await publish(alice);
      const c = (await t.request('POST', `${P}/posts/${post.id}/comments`, { token: commenter.token, body: { content: 'good' } })).body.data;
      expect((await t.request('POST', `${P}/comments/${c.id}/upvote`, { token: alice.token })).body.data).toEqual({ action: 'voted', score: 1 });
      expect((await me(commenter)).karma_score).toBe(1);
      expect((await t.request('GET', `${P}/comments/${c.id}/likes`)).body.data).toEqual([expect.objectContaining({ user_id: alice.id })]);
    });

    it('given no content, when commenting, then 400 content required', async () => {
      const post = await publish(alice);
      const res = await t.request('POST', `${P}/posts/${post.id}/comments`, { token: bob.token, body: {} });
      expect([res.status, res.body.error]).toEqual([400, 'content required']);
    });
  });

  describe('reports and moderation (§12)', () => {
    it('given a report on a post, when a moderator lists and resolves it, then it carries the status and the moderator', async () => {
      const post = await publish(alice);
      const filed = await t.request('POST', `${P}/posts/${post.id}/report`, { token: bob.token, body: { reason: 'spam' } });
      expect([filed.status, filed.body.data.status]).toEqual([201, 'pending']);
      expect((await t.request('GET', `${P}/moderation/reports`, { token: bob.token })).status).toBe(403);
      const list = await t.request('GET', `${P}/moderation/reports?status=pending`, { token: admin.token });
      expect(list.body.data.map((r: { id: string }) => r.id)).toContain(filed.body.data.id);
      const resolved = await t.request('POST', `${P}/admin/moderation/reports/${filed.body.data.id}/resolve`, { token: admin.token, body: { status: 'resolved' } });
      expect(resolved.body.data).toMatchObject({ status: 'resolved', moderator_id: admin.id });
    });

    it('given a hidden post, then it leaves the lists but is still served by id; unhidden it comes back', async () => {
      const post = await publish(alice, { title: 'to hide' });
      expect((await t.request('POST', `${P}/admin/moderation/posts/${post.id}/hide`, { token: admin.token })).body.data).toEqual({ hidden: true });
      const ids = async () => (await t.request('GET', `${P}/posts?limit=100`)).body.data.map((p: { id: string }) => p.id);
      expect(await ids()).not.toContain(post.id);
      expect((await t.request('GET', `${P}/posts/${post.id}`)).body.data.is_hidden).toBe(true);
      await t.request('DELETE', `${P}/admin/moderation/posts/${post.id}/hide`, { token: admin.token });
      expect(await ids()).toContain(post.id);
    });

    it('given a non-admin, when deleting through moderation, then 403 Admin access required', async () => {
      const post = await publish(alice);
      const res = await t.request('DELETE', `${P}/admin/moderation/posts/${post.id}`, { token: bob.token });
      expect([res.status, res.body.error]).toEqual([403, 'Admin access required']);
    });
  });

  describe('rewards (§21.3)', () => {
    it('given a post, a comment on it and an upvote from another user, then the wallets are paid once each by the action table', async () => {
      const author = await signUp(t, { prefix: 'pc' });
      const post = await publish(author);
      await t.request('POST', `${P}/posts/${post.id}/comments`, { token: bob.token, body: { content: 'nice' } });
      await t.request('POST', `${P}/posts/${post.id}/upvote`, { token: bob.token });
      await settled(t);
      const rewards = async (userId: string) =>
        (await t.app.get<EventStore>(EVENT_STORE).readStream(`wallet-${userId}`))
          // the action table's rewards; onboarding pays its steps (first_post…) and achievements their rewards into the same wallet
          .filter((e) => e.type === 'RewardGranted' && !String(e.data.action).startsWith('onboarding') && e.data.action !== 'achievement')
          .map((e) => e.data.action);
      expect((await rewards(author.id)).sort()).toEqual(['create_post', 'upvote_received']);
      expect(await rewards(bob.id)).toContain('create_comment');
    });
  });

  describe('admin stats (§12)', () => {
    it('given content, then /admin/stats counts live posts and comments, communities and pending reports', async () => {
      const before = (await t.request('GET', `${P}/admin/stats`, { token: admin.token })).body.data;
      const post = await publish(alice);
      const gone = await publish(alice);
      await t.request('DELETE', `${P}/posts/${gone.id}`, { token: alice.token });
      await t.request('POST', `${P}/posts/${post.id}/comments`, { token: bob.token, body: { content: 'x' } });
      await t.request('POST', `${P}/posts/${post.id}/report`, { token: bob.token, body: { reason: 'spam' } });
      const after = (await t.request('GET', `${P}/admin/stats`, { token: admin.token })).body.data;
      expect({
        posts: after.total_posts - before.total_posts,
        comments: after.total_comments - before.total_comments,
        reports: after.pending_reports - before.pending_reports,
      }).toEqual({ posts: 1, comments: 1, reports: 1 });
      expect(after).toMatchObject({ total_users: expect.any(Number), total_agents: expect.any(Number), total_humans: expect.any(Number), total_communities: expect.any(Number) });
    });
  });

  describe('feed import (§7)', () => {
    it('given an Atom feed on a (permitted) local server, when previewed and imported, then its items become the caller’s posts', async () => {
      const items = [1, 2, 3].map((i) => ({ id: `${i}`, title: `Entry ${i}`, content: `text ${i}`, url: `https://example.com/${i}`, author: 'x', publishedAt: '2026-05-01T10:00:00Z', updatedAt: '2026-05-01T10:00:00Z' }));
      const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(renderAtom({ title: 'Remote', description: '', link: 'https://example.com', self: 'https://example.com/f', items })));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed`;
      try {
        const preview = await t.request('POST', `${P}/feeds/preview`, { body: { url } });
        expect(preview.body.data.items.map((i: { title: string }) => i.title)).toEqual(['Entry 1', 'Entry 2', 'Entry 3']);
        const imported = await t.request('POST', `${P}/feeds/import`, { token: alice.token, body: { url, limit: 2 } });
        expect(imported.body.data).toMatchObject({ feed_title: 'Remote', items_fetched: 3, items_imported: 2 });
        const post = (await t.request('GET', `${P}/posts/${imported.body.data.post_ids[0]}`)).body.data;
        expect(post).toMatchObject({ title: 'Entry 1', content: 'text 1', link_url: 'https://example.com/1', source_channel: 'feed', author_id: alice.id });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('given no token, when importing, then 401', async () => {
      expect((await t.request('POST', `${P}/feeds/import`, { body: { url: 'https://example.com/f' } })).status).toBe(401);
    });
  });
});
