/**
 * Feed subscriptions and the feed poller over HTTP (social-routes §7): an RSS
 * document served by a local server (FEED_FETCH_ALLOW_PRIVATE lets the
 * guarded fetch reach loopback), subscribed to, listed, cancelled, and
 * imported by the poller on a short interval.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FeedPoller } from '../../src/sagas/feed-poller.sweeper';
import { FeedSubscriptionQueries } from '../../src/modules/content/feed-subscriptions.queries';
import { signUp, startTestApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

const P = '/api/social';

interface User {
  id: string;
  token: string;
}

interface Item {
  guid: string;
  title: string;
}

const rss = (title: string, items: Item[]): string =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><link>https://example.com</link>` +
  items.map((i) => `<item><guid>${i.guid}</guid><title>${i.title}</title><link>https://example.com/${i.guid}</link><description>about ${i.title}</description></item>`).join('') +
  '</channel></rss>';

/** A local feed server: `/feed` (any query) serves `items`, newest first, which may change between requests; `/junk` a non-feed; other paths 404. */
async function feedServer(items: Item[]): Promise<{ url: string; base: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/feed') res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('Remote &amp; Co', items));
    else if (path === '/junk') res.writeHead(200, { 'content-type': 'text/plain' }).end('not a feed');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/feed`, base, server };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

const register = (t: TestApp): Promise<User> => signUp(t, { prefix: 'fs' });

const postsOf = async (t: TestApp, user: User): Promise<{ title: string; source_channel: string; link_url: string }[]> =>
  (await t.request('GET', `${P}/users/${user.id}/posts?limit=100`)).body.data;

describe('feed subscriptions', () => {
  let t: TestApp;
  let feed: Awaited<ReturnType<typeof feedServer>>;
  let alice: User;
  let bob: User;

  beforeAll(async () => {
    t = await startTestApp({ FEED_FETCH_ALLOW_PRIVATE: 'true' });
    feed = await feedServer([{ guid: 'a', title: 'First' }]);
    alice = await register(t);
    bob = await register(t);
  });
  afterAll(async () => {
    await stop(feed.server);
    await t?.close();
  });

  it('given a feed URL, when subscribing, then 201 with the subscription record and the feed’s title', async () => {
    const res = await t.request('POST', `${P}/feeds/subscribe`, { token: alice.token, body: { url: feed.url } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: expect.any(String), user_id: alice.id, url: feed.url, community_id: null, auto_import: true, feed_title: 'Remote &amp; Co', last_fetched_at: expect.any(String), created_at: expect.any(String) });
  });

  it('given auto_import false, when subscribing, then the record says so', async () => {
    const res = await t.request('POST', `${P}/feeds/subscribe`, { token: bob.token, body: { url: `${feed.url}?manual`, auto_import: false } });
    expect(res.status).toBe(201);
    expect(res.body.data.auto_import).toBe(false);
  });

  it('given a URL that does not answer 200, when subscribing, then 400 with the fetch error', async () => {
    const res = await t.request('POST', `${P}/feeds/subscribe`, { token: alice.token, body: { url: `${feed.base}/missing` } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Failed to fetch feed/);
  });

  it('given a URL that is not a feed, when subscribing, then 400 with the parse error', async () => {
    const res = await t.request('POST', `${P}/feeds/subscribe`, { token: alice.token, body: { url: `${feed.base}/junk` } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Failed to parse feed/);
  });

  it('given no url, when subscribing, then 400 `url required`', async () => {
    const res = await t.request('POST', `${P}/feeds/subscribe`, { token: alice.token, body: {} });
    expect(res).toMatchObject({ status: 400, body: { error: 'url required' } });
  });

  it('given no token, when subscribing, then 401', async () => {
    expect((await t.request('POST', `${P}/feeds/subscribe`, { body: { url: feed.url } })).status).toBe(401);
  });

  it('given 5 concurrent subscribes of one user to one URL, then exactly one subscription is made and the others are 409', async () => {
    const carol = await register(t);
    const replies = await Promise.all(Array.from({ length: 5 }, () => t.request('POST', `${P}/feeds/subscribe`, { token: carol.token, body: { url: feed.url } })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(replies.find((r) => r.status === 409)?.body.error).toBe('Already subscribed to this feed');
    const list = await t.request('GET', `${P}/feeds/subscriptions`, { token: carol.token });
    expect(list.body.meta).toMatchObject({ total: 1, has_more: false });
  });

  it('given subscriptions, when listing, then the caller’s own only, paginated', async () => {
    const dave = await register(t);
    for (const q of ['1', '2', '3']) expect((await t.request('POST', `${P}/feeds/subscribe`, { token: dave.token, body: { url: `${feed.url}?${q}` } })).status).toBe(201);
    const page = await t.request('GET', `${P}/feeds/subscriptions?limit=2&offset=1`, { token: dave.token });
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.data.every((s: { user_id: string }) => s.user_id === dave.id)).toBe(true);
    expect(page.body.meta).toEqual({ total: 3, limit: 2, offset: 1, has_more: false });
    expect((await t.request('GET', `${P}/feeds/subscriptions?limit=x`, { token: dave.token })).status).toBe(400);
  });

  it('given someone else’s subscription, when cancelling it, then 404 and it stays', async () => {
    const [mine] = (await t.request('GET', `${P}/feeds/subscriptions`, { token: alice.token })).body.data;
    const res = await t.request('DELETE', `${P}/feeds/subscriptions/${mine.id}`, { token: bob.token });
    expect(res).toMatchObject({ status: 404, body: { error: 'Subscription not found' } });
    expect((await t.request('GET', `${P}/feeds/subscriptions`, { token: alice.token })).body.meta.total).toBe(1);
  });

  it('given my subscription, when cancelling it, then it is gone from my list, and a second cancel is 404', async () => {
    const [mine] = (await t.request('GET', `${P}/feeds/subscriptions`, { token: alice.token })).body.data;
    expect((await t.request('DELETE', `/social/feeds/subscriptions/${mine.id}`, { token: alice.token })).status).toBe(200);
    expect((await t.request('GET', `${P}/feeds/subscriptions`, { token: alice.token })).body.meta.total).toBe(0);
    expect((await t.request('DELETE', `${P}/feeds/subscriptions/${mine.id}`, { token: alice.token })).status).toBe(404);
  });

  it('given a cancelled subscription, when subscribing again, then 201', async () => {
    expect((await t.request('POST', `${P}/feeds/subscribe`, { token: alice.token, body: { url: feed.url } })).status).toBe(201);
  });

  it('given items already imported, when the poller passes again (a restart, a redelivery), then no post is duplicated', async () => {
    const erin = await register(t);
    const sub = (await t.request('POST', `${P}/feeds/subscribe`, { token: erin.token, body: { url: `${feed.url}?erin` } })).body.data;
    const poller = t.app.get(FeedPoller);
    const doc = (await t.app.get(FeedSubscriptionQueries).byId(sub.id))!;
    expect(await poller.pollOne(doc)).toBe(1);
    expect(await poller.pollOne(doc)).toBe(0);
    expect((await postsOf(t, erin)).map((p) => p.title)).toEqual(['First']);
  });
});

describe('the feed poller', () => {
  let t: TestApp;
  let feed: Awaited<ReturnType<typeof feedServer>>;
  const items: Item[] = [
    { guid: 'g2', title: 'Second' },
    { guid: 'g1', title: 'First' },
  ];

  beforeAll(async () => {
    feed = await feedServer(items);
    t = await startTestApp({ FEED_FETCH_ALLOW_PRIVATE: 'true', FEED_POLL_INTERVAL_MS: '150' });
  });
  afterAll(async () => {
    await t?.close();
    await stop(feed.server);
  });

  const subscriptionOf = async (user: User) => (await t.request('GET', `${P}/feeds/subscriptions`, { token: user.token })).body.data[0];

  it('given an auto-import subscription, when the poller runs, then each new item becomes one post of the subscriber, and later passes add only new items', async () => {
    const ann = await register(t);
    expect((await t.request('POST', `${P}/feeds/subscribe`, { token: ann.token, body: { url: feed.url } })).status).toBe(201);
    await eventually('both items imported', () => subscriptionOf(ann), (s) => s?.items_imported === 2);
    const posts = await postsOf(t, ann);
    expect(posts.map((p) => p.title).sort()).toEqual(['First', 'Second']);
    expect(posts[0]).toMatchObject({ source_channel: 'feed' });

    items.unshift({ guid: 'g3', title: 'Third' });
    const third = await eventually('the new item imported', () => subscriptionOf(ann), (s) => s?.items_imported === 3);
    // two more passes over the same three items
    const second = await eventually('another pass', () => subscriptionOf(ann), (s) => s.last_fetched_at !== third.last_fetched_at);
    const last = await eventually('yet another pass', () => subscriptionOf(ann), (s) => s.last_fetched_at !== second.last_fetched_at);
    expect(last.items_imported).toBe(3);
    expect((await postsOf(t, ann)).map((p) => p.title).sort()).toEqual(['First', 'Second', 'Third']);
  });

  it('given auto_import false, when the poller runs, then nothing is imported', async () => {
    const ben = await register(t);
    await t.request('POST', `${P}/feeds/subscribe`, { token: ben.token, body: { url: feed.url, auto_import: false } });
    const ann = await register(t);
    await t.request('POST', `${P}/feeds/subscribe`, { token: ann.token, body: { url: feed.url } });
    // ben subscribed first: the passes that imported ann's items came by his subscription too
    const imported = await eventually('the other subscriber’s items imported', () => subscriptionOf(ann), (s) => s?.items_imported === 3);
    await eventually('a later pass', () => subscriptionOf(ann), (s) => s.last_fetched_at !== imported.last_fetched_at);
    expect(await postsOf(t, ben)).toEqual([]);
  });
});
