/**
 * `npm run projections:rebuild` over the content context: the feeds' read
 * models (posts with their sort fields, the counters), votes, comments,
 * communities and members, and the karma and counts on the users' records
 * rebuilt from the log equal the ones the running service maintained.
 */
import { rmSync } from 'node:fs';
import { startTestApp, uniqueName } from '../support/app';
import { readModelSnapshot, rebuildProjections } from '../support/rebuild';

jest.setTimeout(120_000);

const COLLECTIONS = ['posts', 'post_counts', 'votes', 'comments', 'communities', 'community_members', 'reports', 'users'];

const snapshot = (dataDir: string) => readModelSnapshot(dataDir, COLLECTIONS);

describe('projections:rebuild of the content read models', () => {
  it('given posts, votes, comments, communities and deletions, when rebuilt, then feeds, counters and karma equal the live ones', async () => {
    const t = await startTestApp();
    const users = [];
    for (let i = 0; i < 4; i++) {
      const username = uniqueName('cr');
      const res = await t.request('POST', '/api/social/register', { body: { username, email: `${username}@example.com`, password: 'correct horse battery' } });
      users.push({ id: res.body.data.id as string, token: res.body.data.token as string });
    }
    const [a, b, c, d] = users;
    const name = uniqueName('crc');
    await t.request('POST', '/api/social/communities', { token: a.token, body: { name } });
    await t.request('POST', '/api/social/communities', { token: a.token, body: { name: `${name}p`, is_private: true } });
    for (const u of [b, c]) await t.request('POST', `/api/social/communities/${name}/join`, { token: u.token });
    await t.request('DELETE', `/api/social/communities/${name}/leave`, { token: c.token });
    const posts: string[] = [];
    for (const [i, u] of [a, b, c, a, d].entries()) {
      const body = { title: `post ${i}`, content: 'x', community: i % 2 ? name : i === 4 ? `${name}p` : undefined };
      posts.push((await t.request('POST', '/api/social/posts', { token: u.token, body })).body.data.id);
    }
    for (const [i, u] of users.entries()) {
      await t.request('POST', `/api/social/posts/${posts[0]}/upvote`, { token: u.token });
      await t.request('POST', `/api/social/posts/${posts[1]}/${i % 2 ? 'downvote' : 'upvote'}`, { token: u.token });
    }
    const comment = (await t.request('POST', `/api/social/posts/${posts[0]}/comments`, { token: b.token, body: { content: 'hi' } })).body.data.id;
    await t.request('POST', `/api/social/comments/${comment}/reply`, { token: c.token, body: { content: 'yo' } });
    await t.request('POST', `/api/social/comments/${comment}/upvote`, { token: a.token });
    await t.request('POST', `/api/social/posts/${posts[2]}/report`, { token: d.token, body: { reason: 'spam' } });
    await t.request('DELETE', `/api/social/posts/${posts[3]}`, { token: a.token });
    await t.close(false);
    const live = await snapshot(t.dataDir);
    expect(live.posts).toHaveLength(5);
    expect(live.users.find((u) => (u as { id: string }).id === a.id)).toMatchObject({ post_count: 1, karma_score: 4 });

    await rebuildProjections(t.dataDir);
    expect(await snapshot(t.dataDir)).toEqual(live);
    rmSync(t.dataDir, { recursive: true, force: true });
  });
});

describe('the content routes’ rate limits (§0.3)', () => {
  it('given the default post bucket and 60 votes, when a user posts twice and votes 61 times, then 429 with the original texts', async () => {
    // 60 votes an hour rather than a minute: the bucket refills continuously, so 61 votes that take over a second (MongoDB) would earn a token back
    const t = await startTestApp({ SOCIAL_RATE_LIMIT_DISABLED: '0', RATE_LIMIT_VOTE: '60/1h' });
    try {
      const username = uniqueName('rl');
      const token = (await t.request('POST', '/api/social/register', { body: { username, email: `${username}@example.com`, password: 'correct horse battery' } })).body.data.token;
      const first = await t.request('POST', '/api/social/posts', { token, body: { title: 'one' } });
      expect(first.status).toBe(201);
      const second = await t.request('POST', '/api/social/posts', { token, body: { title: 'two' } });
      expect([second.status, second.body.error]).toEqual([429, 'Rate limit exceeded for post. Try again later.']);
      const votes = [];
      for (let i = 0; i < 61; i++) votes.push((await t.request('POST', `/api/social/posts/${first.body.data.id}/upvote`, { token })).status);
      expect(votes.filter((s) => s === 429)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
