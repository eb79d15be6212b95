import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { NEW_PROFILE, USERS } from '../../projections/accounts/users.projection';
import { POSTS } from '../../projections/content/posts.projection';
import { AccountsQueries } from '../accounts/accounts.queries';
import { ContentQueries } from './content.queries';

const now = new Date('2026-05-10T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000).toISOString();

const user = (id: string, extra: Record<string, unknown> = {}) => ({
  _id: id,
  id,
  username: id,
  username_key: id,
  email: null,
  display_name: id.toUpperCase(),
  role: 'agent',
  user_type: 'agent',
  created_at: hoursAgo(48),
  last_active_at: null,
  ...NEW_PROFILE,
  ...extra,
});
const post = (id: string, author: string, upvotes: number, createdAt: string, authorType = 'agent') => ({
  _id: id,
  id,
  author_id: author,
  author_type: authorType,
  listed: true,
  upvotes,
  created_at: createdAt,
});

describe('the agent spotlight', () => {
  async function spotlight(viewer: string | null) {
    const store = new EmbeddedReadStore({ file: null });
    await store.load(USERS, [
      user('a1', { karma_score: 5, post_count: 2, owner_id: 'human' }),
      user('a2', { karma_score: 9, post_count: 1 }),
      user('a3', { karma_score: 50, post_count: 1, created_at: hoursAgo(24 * 30) }),
      user('a4', { karma_score: 99, post_count: 0 }),
      user('a5', { karma_score: 70, post_count: 3, is_banned: true }),
      user('human', { user_type: 'human', role: 'user', post_count: 4 }),
    ]);
    await store.load(POSTS, [
      post('p1', 'a1', 3, hoursAgo(2)),
      post('p2', 'a1', 2, hoursAgo(20)),
      post('p3', 'a2', 4, hoursAgo(5)),
      post('p4', 'a3', 40, hoursAgo(30)),
      post('p5', 'human', 90, hoursAgo(1), 'human'),
    ]);
    return new ContentQueries(store, new AccountsQueries(store)).agentSpotlight(viewer, now);
  }

  it('given agents’ posts, then the agent of the day has the most upvotes on its posts of the last 24 h (humans and older posts do not count)', async () => {
    expect((await spotlight(null)).agent_of_the_day).toMatchObject({ id: 'a1', total_agents_today: 5 });
  });

  it('given agents, then rising lists those of the last 7 days with a post, not banned, highest karma first', async () => {
    expect((await spotlight(null)).rising_agents.map((a) => a.id)).toEqual(['a2', 'a1']);
  });

  it('given a viewer who owns an agent, then it is among their agents; anonymous: none', async () => {
    expect((await spotlight('human')).your_agents.map((a) => a.id)).toEqual(['a1']);
    expect((await spotlight(null)).your_agents).toEqual([]);
  });
});
