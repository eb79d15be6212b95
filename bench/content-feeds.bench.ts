/**
 * Section 11: the social feeds and votes.
 *
 * Feed reads (in process, embedded read store): the `posts` read model built
 * by its projection from `posts` generated events (PostPublished spread over
 * 30 days, votes, comments), 10,000 users, then p50/p99 of
 * ContentQueries' /feed/all (new), /feed/all?sort=hot, /feed/trending and a
 * personalised /feed (a viewer following 50 users and in 3 communities),
 * each against a naive read of the same data in the same run: every post
 * read, filtered, sorted and paged in JavaScript, then shaped the same way.
 *
 * Votes (real app, child process): POST /api/social/posts/{id}/upvote and
 * /downvote by `voters` users over `posts` posts with autocannon, against
 * GET /health on the same app.
 *
 * `BENCH_ONLY=11`; BENCH_FEED_POSTS (100,000), BENCH_FEED_USERS (10,000),
 * BENCH_FEED_CALLS (300), BENCH_VOTE_SECONDS (5), BENCH_VOTE_VOTERS (200),
 * BENCH_VOTE_POSTS (50) size it.
 */
import autocannon from 'autocannon';
import { postFields } from '../src/aggregates/content/post';
import type { RecordedEvent } from '../src/infrastructure/event-store/event-store.port';
import { PageWriter } from '../src/infrastructure/projections/page-writer';
import { EmbeddedReadStore } from '../src/infrastructure/read-store/embedded/embedded-read-store';
import type { Doc, ReadStore } from '../src/infrastructure/read-store/read-store.port';
import { NEW_PROFILE, USERS } from '../src/projections/accounts/users.projection';
import { COMMUNITY_MEMBERS, memberDocId } from '../src/projections/content/communities.projection';
import { type PostDoc, POSTS, postsProjection } from '../src/projections/content/posts.projection';
import { AccountsQueries } from '../src/modules/accounts/accounts.queries';
import { ContentQueries, FOLLOWS } from '../src/modules/content/content.queries';
import { type Latency, ms, timeCalls } from './contest-reads.bench';
import { expectCall } from './encounter-chat.bench';
import { cannon, type HttpRun, printRun, startServer } from './http.bench';
import { fixed, heading, int, log, makeTempDir, now, prng, ratio, removeTempDir, secondsSince } from './util';

export interface ContentFeedsOptions {
  posts: number;
  users: number;
  calls: number;
  maxSeconds: number;
  voteSeconds: number;
  voters: number;
  votePosts: number;
  connections: number;
}

export interface FeedPair {
  name: string;
  indexed: Latency;
  naive: Latency;
}

export interface ContentFeedsResult {
  posts: number;
  users: number;
  feeds: FeedPair[];
  health: HttpRun;
  votes: HttpRun;
  seconds: number;
}

const DAY_MS = 86_400_000;
const PAGE = { offset: 0, limit: 25 };

let position = 0;
function event(type: string, data: Record<string, unknown>): RecordedEvent {
  position += 1;
  return {
    streamId: `b-${position}`,
    type,
    revision: 0,
    position,
    data: data as RecordedEvent['data'],
    recordedAt: 'x',
    metadata: { eventId: `e${position}`, correlationId: 'c', causationId: null, actor: 'bench', nodeId: 'n', occurredAt: 'x', schemaVersion: 1 },
  };
}

function* feedEvents(options: ContentFeedsOptions, nowMs: number): Generator<RecordedEvent> {
  const random = prng(11);
  const communities = 200;
  for (let i = 0; i < options.posts; i++) {
    const author = `u${Math.floor(random() * options.users)}`;
    const community = random() < 0.5 ? `c${Math.floor(random() * communities)}` : null;
    yield event('PostPublished', {
      post_id: `p${i}`,
      author_id: author,
      author_type: random() < 0.2 ? 'agent' : 'human',
      community_id: community,
      community_private: community !== null && community.endsWith('7'),
      ...postFields(`post ${i}`, 'lorem ipsum dolor sit amet'),
      published_at: new Date(nowMs - random() * 30 * DAY_MS).toISOString(),
    });
  }
  for (let i = 0; i < options.posts; i++) {
    const post = `p${Math.floor(random() * options.posts)}`;
    const up = random() < 0.7;
    yield event('PostVoted', { post_id: post, voter_id: `v${i}`, target_author_id: 'x', outcome: 'voted', value: up ? 1 : -1, previous: 0, upvotes: 0, downvotes: 0, score: 0, at: 'x' });
  }
  for (let i = 0; i < options.posts / 2; i++) {
    yield event('CommentPosted', { comment_id: `k${i}`, post_id: `p${Math.floor(random() * options.posts)}`, author_id: 'u0', parent_id: null, depth: 0, content: 'x', post_author_id: 'x', parent_author_id: null, posted_at: 'x' });
  }
}

async function buildReadModel(store: ReadStore, options: ContentFeedsOptions, nowMs: number): Promise<void> {
  for (const { collection, spec } of postsProjection.indexes ?? []) await store.collection(collection).createIndex(spec);
  let writer = new PageWriter(store);
  writer.owner = postsProjection.name;
  let inPage = 0;
  for (const e of feedEvents(options, nowMs)) {
    await postsProjection.apply(e, writer);
    if (++inPage === 1000) {
      await writer.commit();
      writer = new PageWriter(store);
      writer.owner = postsProjection.name;
      inPage = 0;
    }
  }
  await writer.commit();
  const users: Doc[] = [];
  for (let i = 0; i < options.users; i++) {
    users.push({ _id: `u${i}`, id: `u${i}`, username: `user${i}`, username_key: `user${i}`, email: null, display_name: `User ${i}`, role: 'user', user_type: 'human', created_at: 'x', last_active_at: null, ...NEW_PROFILE });
  }
  await store.load(USERS, users);
  await store.load(FOLLOWS, Array.from({ length: 50 }, (_, i) => ({ _id: `viewer:u${i * 97}`, follower_id: 'viewer', followee_id: `u${i * 97}` })));
  await store.collection(FOLLOWS).createIndex({ keys: { follower_id: 1 } });
  await store.load(COMMUNITY_MEMBERS, ['c1', 'c2', 'c3'].map((c) => ({ _id: memberDocId(c, 'viewer'), community_id: c, user_id: 'viewer', role: 'member', joined_at: 'x' })));
  await store.collection(COMMUNITY_MEMBERS).createIndex({ keys: { user_id: 1 } });
}

function newest(a: PostDoc, b: PostDoc): number {
  return a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a._id < b._id ? -1 : 1;
}

export async function runContentFeedsBench(options: ContentFeedsOptions): Promise<ContentFeedsResult> {
  heading('11. social feeds (read models) and votes (real app)');
  const start = now();
  const nowMs = Date.now();
  const store = new EmbeddedReadStore({ file: null });
  const built = now();
  await buildReadModel(store, options, nowMs);
  log(`  setup: ${int(options.posts)} posts, ${int(options.posts)} votes, ${int(options.posts / 2)} comments through the posts projection, ${int(options.users)} users in ${fixed(secondsSince(built), 1)} s`);
  const queries = new ContentQueries(store, new AccountsQueries(store));
  const clock = new Date(nowMs);
  const posts = store.collection<PostDoc>(POSTS);
  /** The naive read: every post, filtered, sorted and paged here, then shaped like the indexed read. */
  const naive = async (keep: (p: PostDoc) => boolean, order: (a: PostDoc, b: PostDoc) => number) => {
    const all = (await posts.find({})).filter(keep).sort(order);
    return queries.shapePosts(all.slice(0, PAGE.limit), null);
  };
  const since = new Date(nowMs - DAY_MS).toISOString();
  const following = new Set(Array.from({ length: 50 }, (_, i) => `u${i * 97}`));
  const mine = new Set(['c1', 'c2', 'c3']);
  const cases: { name: string; indexed: () => Promise<unknown>; naive: () => Promise<unknown> }[] = [
    { name: '/feed/all (new)', indexed: () => queries.postsPage({ sort: 'new', scope: 'listed' }, PAGE, null), naive: () => naive((p) => p.listed, newest) },
    {
      name: '/feed/all?sort=hot',
      indexed: () => queries.postsPage({ sort: 'hot', scope: 'listed' }, PAGE, null),
      naive: () => naive((p) => p.listed, (a, b) => b.score + b.comment_count - (a.score + a.comment_count) || newest(a, b)),
    },
    {
      name: '/feed/trending',
      indexed: () => queries.trendingPage(PAGE, null, clock),
      naive: () => naive((p) => p.listed && p.created_at >= since, (a, b) => b.score + 2 * b.comment_count - (a.score + 2 * a.comment_count) || newest(a, b)),
    },
    {
      name: '/feed (50 follows, 3 communities)',
      indexed: () => queries.personalPage('viewer', PAGE),
      naive: () => naive((p) => (p.listed && following.has(p.author_id)) || (p.visible && p.community_id !== null && mine.has(p.community_id)), newest),
    },
  ];
  const feeds: FeedPair[] = [];
  for (const c of cases) {
    const indexed = await timeCalls(`${c.name} indexed`, c.indexed, options.calls, options.maxSeconds, 3);
    const scan = await timeCalls(`${c.name} naive scan`, c.naive, Math.max(5, Math.floor(options.calls / 10)), options.maxSeconds, 1);
    log(`    ${c.name.padEnd(36)} p50 ${ms(indexed.p50).padStart(7)} ms  p99 ${ms(indexed.p99).padStart(7)} ms   naive p50 ${ms(scan.p50).padStart(7)} ms  p99 ${ms(scan.p99).padStart(7)} ms  (${ratio(scan.p50, indexed.p50)} faster)`);
    feeds.push({ name: c.name, indexed, naive: scan });
  }
  await store.close();

  const dataDir = makeTempDir('votes');
  const server = await startServer(dataDir, { PASSWORD_HASH_MEMORY_KIB: '4096', SOCIAL_RATE_LIMIT_DISABLED: '1' });
  try {
    const base = { url: server.url, connections: options.connections };
    await autocannon({ ...base, url: `${server.url}/health`, duration: 1 });
    const health = await cannon('GET /health', { ...base, url: `${server.url}/health` }, options.voteSeconds);
    printRun(health, options.voteSeconds);
    const prefix = `v${Date.now().toString(36)}`;
    const tokens: string[] = [];
    for (let i = 0; i < options.voters; i++) {
      const username = `${prefix}${i}`;
      tokens.push((await expectCall(201, 'register', server.url, 'POST', '/api/social/register', { username, email: `${username}@example.com`, password: 'correct horse battery' })).body.data.token);
    }
    const postIds: string[] = [];
    for (let i = 0; i < options.votePosts; i++) {
      postIds.push((await expectCall(201, 'publish', server.url, 'POST', '/api/social/posts', { title: `bench ${i}` }, tokens[i % tokens.length])).body.data.id);
    }
    let next = 0;
    const votes = await cannon(
      'POST /posts/{id}/upvote|downvote',
      {
        ...base,
        url: server.url,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const n = next++;
              return {
                ...request,
                path: `/api/social/posts/${postIds[n % postIds.length]}/${n % 3 ? 'upvote' : 'downvote'}`,
                headers: { authorization: `Bearer ${tokens[Math.floor(n / postIds.length) % tokens.length]}` },
              };
            },
          },
        ],
      },
      options.voteSeconds,
    );
    printRun(votes, options.voteSeconds);
    log(`  ratio votes / health: ${ratio(votes.requestsPerSecond, health.requestsPerSecond)}`);
    if (votes.non2xx + votes.errors > 0) log(`  ! non-2xx or errors: ${votes.statusCodes}`);
    return { posts: options.posts, users: options.users, feeds, health, votes, seconds: secondsSince(start) };
  } finally {
    await server.stop();
    removeTempDir(dataDir);
  }
}
