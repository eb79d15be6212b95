import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { NEW_PROFILE, USERS } from '../../projections/accounts/users.projection';
import { AccountsQueries } from '../accounts/accounts.queries';
import { ProximityQueries } from './proximity.queries';

const now = new Date('2026-11-23T10:00:00.000Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000).toISOString();

describe('who is nearby (GET /encounters/nearby)', () => {
  let store: EmbeddedReadStore;
  let queries: ProximityQueries;
  beforeEach(async () => {
    store = new EmbeddedReadStore({ file: null });
    queries = new ProximityQueries(store, new AccountsQueries(store));
    const user = (id: string, region: string | null, lastActive: string | null, extra: Record<string, unknown> = {}) => ({
      _id: id,
      id,
      username: id,
      username_key: id,
      display_name: `<${id}>`,
      user_type: 'human',
      created_at: hoursAgo(100),
      last_active_at: lastActive,
      ...NEW_PROFILE,
      region_id: region,
      ...extra,
    });
    const users = [
      user('me', 'r1', hoursAgo(0)),
      user('recent', 'r1', hoursAgo(2)),
      user('stale', 'r1', hoursAgo(25)),
      user('elsewhere', 'r2', hoursAgo(1)),
      user('banned', 'r1', hoursAgo(1), { is_banned: true }),
      user('lost', null, hoursAgo(1)),
    ];
    for (const doc of users) await store.collection(USERS).insertOne(doc);
  });
  afterEach(() => store.close());

  it('given a caller with a region, then the others of that region active in the last 24 h, as escaped cards', async () => {
    expect(await queries.nearby('me', now)).toEqual([{ id: 'recent', username: 'recent', display_name: '&lt;recent&gt;', avatar_url: null, user_type: 'human' }]);
  });

  it('given a caller without a region, then nobody', async () => {
    expect(await queries.nearby('lost', now)).toEqual([]);
  });
});
