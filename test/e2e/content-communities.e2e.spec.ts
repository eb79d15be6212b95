/**
 * Communities and feeds over HTTP (social-routes §6, §7, §21.1): unique names
 * under concurrent creation, idempotent joins that never double-count,
 * community roles, private communities' visibility, the feeds' orders and
 * the personalised feed. One app for the file.
 */
import { signUp, startTestApp, type TestApp, uniqueName } from '../support/app';

jest.setTimeout(60_000);

const P = '/api/social';

interface User {
  id: string;
  token: string;
}

describe('communities and feeds over HTTP', () => {
  let t: TestApp;
  let alice: User;
  let bob: User;

  const create = (user: User, body: Record<string, unknown>) => t.request('POST', `${P}/communities`, { token: user.token, body });
  const publish = async (user: User, body: Record<string, unknown>) => {
    const res = await t.request('POST', `${P}/posts`, { token: user.token, body });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; community_id: string | null };
  };
  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((p) => p.id);

  beforeAll(async () => {
    t = await startTestApp();
    alice = await signUp(t, { prefix: 'cf' });
    bob = await signUp(t, { prefix: 'cf' });
  });
  afterAll(async () => t?.close());

  describe('creating', () => {
    it('given a new name, when created, then 201 with the creator as admin and member_count 1', async () => {
      const name = uniqueName('c');
      const res = await create(alice, { name, description: '<i>about</i>' });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ name, member_count: 1, creator_id: alice.id, is_member: true, role: 'admin', description: '&lt;i&gt;about&lt;/i&gt;' });
      const read = await t.request('GET', `${P}/communities/${name}`, { token: alice.token });
      expect(read.body.data).toMatchObject({ id: res.body.data.id, is_member: true, role: 'admin' });
      expect((await t.request('GET', `/social/communities/${res.body.data.id}`)).body.data.name).toBe(name);
    });

    it('given a taken name in another case, when created, then 400 with the original text', async () => {
      const name = uniqueName('dup');
      await create(alice, { name });
      const res = await create(bob, { name: name.toUpperCase() });
      expect([res.status, res.body.error]).toEqual([400, `Community '${name.toUpperCase()}' already exists`]);
    });

    it('given 8 concurrent creations of one name, then exactly one succeeds', async () => {
      const name = uniqueName('race');
      const results = await Promise.all(Array.from({ length: 8 }, () => create(bob, { name })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 400)).toHaveLength(7);
    });

    it('given an unknown community, when read, then 404 Community not found', async () => {
      const res = await t.request('GET', `${P}/communities/${uniqueName('none')}`);
      expect([res.status, res.body.error]).toEqual([404, 'Community not found']);
    });
  });

  describe('membership', () => {
    it('given 20 users joining at once and one user joining 10 times at once, then member_count counts each member once', async () => {
      const name = uniqueName('join');
      await create(alice, { name });
      const users = await Promise.all(Array.from({ length: 20 }, () => signUp(t, { prefix: 'cf' })));
      await Promise.all([
        ...users.map((u) => t.request('POST', `${P}/communities/${name}/join`, { token: u.token })),
        ...Array.from({ length: 10 }, () => t.request('POST', `${P}/communities/${name}/join`, { token: bob.token })),
      ]);
      expect((await t.request('GET', `${P}/communities/${name}`)).body.data.member_count).toBe(22);
      const members = await t.request('GET', `${P}/communities/${name}/members?limit=100`);
      expect(members.body.meta.total).toBe(22);
    });

    it('given a member, when joining again, then joined false; leaving twice is idempotent', async () => {
      const name = uniqueName('idem');
      await create(alice, { name });
      expect((await t.request('POST', `${P}/communities/${name}/join`, { token: bob.token })).body.data).toEqual({ joined: true });
      expect((await t.request('POST', `${P}/communities/${name}/join`, { token: bob.token })).body.data).toEqual({ joined: false });
      expect((await t.request('DELETE', `${P}/communities/${name}/leave`, { token: bob.token })).body.data).toEqual({ left: true });
      expect((await t.request('DELETE', `${P}/communities/${name}/leave`, { token: bob.token })).body.data).toEqual({ left: true });
      expect((await t.request('GET', `${P}/communities/${name}`)).body.data.member_count).toBe(1);
    });

    it('given the community admin, when promoting a non-member, a member, then 400, then the member moderates (PATCH, pin)', async () => {
      const name = uniqueName('mods');
      await create(alice, { name });
      const refused = await t.request('POST', `${P}/communities/${name}/moderators`, { token: alice.token, body: { user_id: bob.id } });
      expect([refused.status, refused.body.error]).toEqual([400, 'User is not a member']);
      await t.request('POST', `${P}/communities/${name}/join`, { token: bob.token });
      const post = await publish(alice, { title: 'pin me', community: name });
      expect((await t.request('POST', `${P}/posts/${post.id}/pin`, { token: bob.token })).status).toBe(403);
      expect((await t.request('PATCH', `${P}/communities/${name}`, { token: bob.token, body: { description: 'x' } })).body.error).toBe('Moderator access required');
      const byMember = await t.request('POST', `${P}/communities/${name}/moderators`, { token: bob.token, body: { user_id: bob.id } });
      expect([byMember.status, byMember.body.error]).toEqual([403, 'Admin access required']);
      expect((await t.request('POST', `${P}/communities/${name}/moderators`, { token: alice.token, body: { user_id: bob.id } })).body.data).toEqual({ promoted: true });
      expect((await t.request('POST', `${P}/posts/${post.id}/pin`, { token: bob.token })).body.data).toEqual({ pinned: true });
      expect((await t.request('PATCH', `${P}/communities/${name}`, { token: bob.token, body: { description: 'new' } })).body.data.description).toBe('new');
      expect((await t.request('DELETE', `${P}/communities/${name}/moderators/${bob.id}`, { token: alice.token })).body.data).toEqual({ demoted: true });
      expect((await t.request('GET', `${P}/communities/${name}`, { token: bob.token })).body.data.role).toBe('member');
    });

    it('given posts in a community, then its post_count and its posts list count them', async () => {
      const name = uniqueName('count');
      await create(alice, { name });
      await publish(alice, { title: 'a', community: name });
      await publish(bob, { title: 'b', community: name });
      expect((await t.request('GET', `${P}/communities/${name}`)).body.data.post_count).toBe(2);
      const list = await t.request('GET', `${P}/communities/${name}/posts`);
      expect([list.body.data.length, list.body.meta.total]).toEqual([2, 2]);
      expect((await t.request('GET', `${P}/posts?community=${name}`)).body.meta.total).toBe(2);
    });
  });

  describe('private communities (§21.1)', () => {
    it('given a post in a private community, then only its members see it in the feed and the community’s list', async () => {
      const name = uniqueName('priv');
      await create(alice, { name, is_private: true });
      const post = await publish(alice, { title: 'secret', community: name });
      expect(ids(await t.request('GET', `${P}/feed/all?limit=100`))).not.toContain(post.id);
      expect(ids(await t.request('GET', `${P}/feed/all?limit=100`, { token: bob.token }))).not.toContain(post.id);
      expect(ids(await t.request('GET', `${P}/feed/all?limit=100`, { token: alice.token }))).toContain(post.id);
      expect((await t.request('GET', `${P}/communities/${name}/posts`, { token: bob.token })).body.data).toEqual([]);
      expect(ids(await t.request('GET', `${P}/communities/${name}/posts`, { token: alice.token }))).toEqual([post.id]);
    });
  });

  describe('feeds (§21.1)', () => {
    it('given posts with votes and comments, then top, hot and discussed order them by their formulas', async () => {
      const name = uniqueName('order');
      await create(alice, { name });
      const voted = await publish(alice, { title: 'voted', community: name });
      const discussed = await publish(alice, { title: 'discussed', community: name });
      const plain = await publish(alice, { title: 'plain', community: name });
      const voters = await Promise.all(Array.from({ length: 3 }, () => signUp(t, { prefix: 'cf' })));
      await Promise.all(voters.map((v) => t.request('POST', `${P}/posts/${voted.id}/upvote`, { token: v.token })));
      for (let i = 0; i < 4; i++) await t.request('POST', `${P}/posts/${discussed.id}/comments`, { token: bob.token, body: { content: `c${i}` } });
      const order = async (sort: string) => ids(await t.request('GET', `${P}/communities/${name}/posts?sort=${sort}`));
      expect(await order('new')).toEqual([plain.id, discussed.id, voted.id]);
      expect(await order('top')).toEqual([voted.id, plain.id, discussed.id]);
      expect(await order('hot')).toEqual([discussed.id, voted.id, plain.id]);
      expect(await order('discussed')).toEqual([discussed.id, plain.id, voted.id]);
      const trending = ids(await t.request('GET', `${P}/feed/trending?limit=100`));
      expect(trending.indexOf(discussed.id)).toBeLessThan(trending.indexOf(voted.id));
    });

    it('given a user in no community who follows nobody, then /feed is the trending feed', async () => {
      const loner = await signUp(t, { prefix: 'cf' });
      const feed = await t.request('GET', `${P}/feed?limit=10`, { token: loner.token });
      const trending = await t.request('GET', `${P}/feed/trending?limit=10`);
      expect(ids(feed)).toEqual(ids(trending));
    });

    it('given a user who joined a community, then /feed holds that community’s posts, newest first', async () => {
      const reader = await signUp(t, { prefix: 'cf' });
      const name = uniqueName('mine');
      await create(alice, { name });
      await t.request('POST', `${P}/communities/${name}/join`, { token: reader.token });
      const first = await publish(alice, { title: 'one', community: name });
      const second = await publish(bob, { title: 'two', community: name });
      await publish(bob, { title: 'elsewhere' });
      const feed = await t.request('GET', `${P}/feed`, { token: reader.token });
      expect([ids(feed), feed.body.meta.total]).toEqual([[second.id, first.id], 2]);
    });

    it('given a followed author posting in the open, in a joined and in an unjoined private community, then /feed shows the first two only', async () => {
      const reader = await signUp(t, { prefix: 'cf' });
      const author = await signUp(t, { prefix: 'cf' });
      expect((await t.request('POST', `${P}/users/${author.id}/follow`, { token: reader.token })).body.data).toEqual({ followed: true });
      const joined = uniqueName('pjoin');
      const closed = uniqueName('pshut');
      await create(author, { name: joined, is_private: true });
      await create(author, { name: closed, is_private: true });
      await t.request('POST', `${P}/communities/${joined}/join`, { token: reader.token });
      const open = await publish(author, { title: 'open' });
      const inJoined = await publish(author, { title: 'members', community: joined });
      await publish(author, { title: 'not for the reader', community: closed });
      const stranger = await publish(bob, { title: 'not followed' });
      const feed = await t.request('GET', `${P}/feed`, { token: reader.token });
      expect([ids(feed), feed.body.meta.total]).toEqual([[inJoined.id, open.id], 2]);
      expect(ids(feed)).not.toContain(stranger.id);
    });

    it('given a followed author whose post in a joined community is also theirs, then /feed shows it once and counts it once', async () => {
      const reader = await signUp(t, { prefix: 'cf' });
      const name = uniqueName('both');
      await create(alice, { name });
      await t.request('POST', `${P}/users/${alice.id}/follow`, { token: reader.token });
      await t.request('POST', `${P}/communities/${name}/join`, { token: reader.token });
      const post = await publish(alice, { title: 'both ways', community: name });
      const page = await t.request('GET', `${P}/feed?limit=100`, { token: reader.token });
      expect(ids(page).filter((id) => id === post.id)).toHaveLength(1);
      expect(page.body.meta.total).toBe(ids(page).length);
    });

    it('given the global feed, then meta counts every listed post and pages do not overlap', async () => {
      const first = await t.request('GET', `${P}/feed/all?limit=2`);
      const second = await t.request('GET', `${P}/feed/all?limit=2&offset=2`);
      expect(first.body.meta).toMatchObject({ limit: 2, offset: 0, has_more: true });
      expect(first.body.meta.total).toBeGreaterThan(4);
      expect(ids(first).filter((id) => ids(second).includes(id))).toEqual([]);
    });

    it.each([['/feed/all?sort=best'], ['/posts?limit=ten'], ['/feed/trending?offset=-1']])('given %s, then 400', async (path) => {
      expect((await t.request('GET', `${P}${path}`)).status).toBe(400);
    });

    it('given an anonymous caller, then the agent spotlight is marked publicly cacheable; a signed-in one is not', async () => {
      const anonymous = await t.request('GET', `${P}/feed/agent-spotlight`);
      expect([anonymous.status, anonymous.headers.get('x-cache-scope')]).toEqual([200, 'public']);
      expect(anonymous.body.data).toMatchObject({ rising_agents: expect.any(Array), your_agents: [] });
      const signedIn = await t.request('GET', `${P}/feed/agent-spotlight`, { token: alice.token });
      expect([signedIn.status, signedIn.headers.get('x-cache-scope')]).toEqual([200, null]);
    });

    it('given the agents feed and discovery, then they answer pages', async () => {
      expect((await t.request('GET', `${P}/feed/agents`)).body.meta).toBeDefined();
      expect((await t.request('GET', `${P}/discovery/communities`)).body.data.length).toBeGreaterThan(0);
    });
  });

  describe('search (§8)', () => {
    it('given posts, users and communities, then a case-insensitive substring finds each kind', async () => {
      const word = uniqueName('Needle');
      const post = await publish(alice, { title: `A ${word} in a haystack` });
      await create(alice, { name: uniqueName('s'), description: `about ${word.toLowerCase()}` });
      const posts = await t.request('GET', `${P}/search?q=${word.toUpperCase()}`);
      expect(ids(posts)).toEqual([post.id]);
      const communities = await t.request('GET', `${P}/search?type=communities&q=${word}`);
      expect(communities.body.data).toHaveLength(1);
      const users = await t.request('GET', `${P}/search?type=users&q=cf&limit=100`);
      expect(users.body.data.length).toBeGreaterThan(0);
    });

    it.each(['.*', '$where', '{"$gt":""}', '(', '\\'])('given the query %s, then it is matched as text, never as a pattern or operator', async (q) => {
      const res = await t.request('GET', `${P}/search?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    });

    it('given a post holding .* literally, then searching .* finds it and only it', async () => {
      const post = await publish(bob, { title: 'regex .* inside' });
      expect(ids(await t.request('GET', `${P}/search?q=${encodeURIComponent('.*')}`))).toEqual([post.id]);
    });

    it('given no q, then 400 q parameter required', async () => {
      const res = await t.request('GET', `${P}/search?q=%20`);
      expect([res.status, res.body.error]).toEqual([400, 'q parameter required']);
    });
  });

  describe('feed documents (§7)', () => {
    it.each([
      ['rss', 'application/rss+xml', '<rss version="2.0"'],
      ['atom', 'application/atom+xml', '<feed xmlns="http://www.w3.org/2005/Atom">'],
      ['json', 'application/feed+json', '"version":"https://jsonfeed.org/version/1.1"'],
    ])('given a post, when /feeds/%s is read, then it is the document with its content type and the title escaped', async (format, type, marker) => {
      await publish(alice, { title: `Feed <${format}> & co` });
      const res = await t.request('GET', `/api/social/feeds/${format}?limit=5`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      expect(text).toContain(marker);
      expect(text).toContain(format === 'json' ? `Feed <${format}> & co` : `Feed &lt;${format}&gt; &amp; co`);
    });

    it('given a user and a community with posts, then their RSS holds their posts; a private community is 404', async () => {
      const name = uniqueName('rss');
      const community = (await create(bob, { name })).body.data;
      const post = await publish(bob, { title: 'in community rss', community: name });
      const byUser = await t.request('GET', `/social/users/${bob.id}/feed.rss`);
      expect([byUser.status, byUser.body]).toEqual([200, expect.stringContaining(post.id)]);
      const byCommunity = await t.request('GET', `/social/communities/${community.id}/feed.rss`);
      expect([byCommunity.status, byCommunity.body]).toEqual([200, expect.stringContaining('in community rss')]);
      const secret = (await create(bob, { name: `${name}x`, is_private: true })).body.data;
      expect((await t.request('GET', `/social/communities/${secret.id}/feed.rss`)).status).toBe(404);
      expect((await t.request('GET', `/social/users/nobody/feed.rss`)).status).toBe(404);
    });

    it('given an unknown type, then 400', async () => {
      expect((await t.request('GET', '/api/social/feeds/rss?type=mine')).status).toBe(400);
    });
  });

  describe('feed preview refusals (§7)', () => {
    it.each(['http://127.0.0.1:9/feed', 'http://169.254.169.254/latest/meta-data', 'http://localhost:9/feed', 'file:///etc/passwd'])(
      'given %s (private addresses not allowed by default), then 400, nothing fetched',
      async (url) => {
        const res = await t.request('POST', `${P}/feeds/preview`, { body: { url } });
        expect(res.status).toBe(400);
        expect(res.body.error).toMatch(/not a public address|http\(s\) URL/);
      },
    );

    it('given no url, then 400 url required', async () => {
      const res = await t.request('POST', `${P}/feeds/preview`, { body: {} });
      expect([res.status, res.body.error]).toEqual([400, 'url required']);
    });
  });
});
