import type { TrackPoints } from '../../aggregates/contest/scoring';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { CONTEST_TRACK_SCORES, CONTEST_WALLETS, contestLeaderboardProjection as projection } from './contest-leaderboard.projection';

const registered = (id: string, username: string) =>
  recorded('UserRegistered', {
    user_id: id,
    username,
    email: `${username}@x.io`,
    display_name: `D ${username}`,
    role: 'user',
    user_type: 'human',
    password_hash: 'h',
    registered_at: 't',
  });
const joined = (id: string) => recorded('ContestJoined', { user_id: id, track: 'digital', joined_at: '2026-04-01T00:00:00Z' });
const awarded = (id: string, tracks: TrackPoints, at: string, source: string) =>
  recorded('SparkAwarded', {
    user_id: id,
    amount: Object.values(tracks).reduce((a, b) => a + b, 0),
    tracks,
    source_type: 'x',
    source_id: source,
    reason: 'x',
    awarded_at: at,
  });
/** alice (u1) joins the digital track and earns two awards; bob (u2) only registers */
const season = () => [
  registered('u1', 'alice'),
  registered('u2', 'bob'),
  joined('u1'),
  awarded('u1', { digital: 1 }, '2026-04-01T00:00:00Z', 's0'),
  awarded('u1', { digital: 25, human_wellness: 15 }, '2026-04-02T00:00:00Z', 's1'),
];

describe('contestLeaderboard projection', () => {
  it('given a join and awards, then the wallet carries the names, the sums, the joined track and the last reach time', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, ...season());
    expect(await store.collection(CONTEST_WALLETS).findOne({ _id: 'u1' })).toMatchObject({
      user_id: 'u1',
      username: 'alice',
      display_name: 'D alice',
      season_spark: 41,
      season_pulse: 0,
      awards: 2,
      tracks: { digital: 26, human_wellness: 15 },
      joined_track: 'digital',
      reached_at: '2026-04-02T00:00:00Z',
    });
  });

  it('given a registration only, then the user has no wallet', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, ...season());
    expect(await store.collection(CONTEST_WALLETS).findOne({ _id: 'u2' })).toBeNull();
  });

  it('given awards on two tracks, then one track score per track with the sum and the names', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, ...season());
    expect(await store.collection(CONTEST_TRACK_SCORES).find({}, { sort: { _id: 1 } })).toEqual([
      expect.objectContaining({ _id: 'digital:u1', track: 'digital', score: 26, username: 'alice' }),
      expect.objectContaining({ _id: 'human_wellness:u1', track: 'human_wellness', score: 15 }),
    ]);
  });

  it('given a registration and an award, when they are redelivered, then nothing is counted twice', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const reg = registered('u3', 'carol');
    const award = awarded('u3', { embodied: 75 }, '2026-04-03T00:00:00Z', 's2');
    await applyAll(projection, store, reg, award);
    await applyAll(projection, store, reg, award);
    await applyAll(projection, store, award);
    expect(await store.collection(CONTEST_WALLETS).findOne({ _id: 'u3' })).toMatchObject({ season_spark: 75, awards: 1 });
    expect(await store.collection(CONTEST_TRACK_SCORES).findOne({ _id: 'embodied:u3' })).toMatchObject({ score: 75 });
  });

  it('given an award before the account is known, then the names arrive with the registration', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, awarded('u4', { digital: 50 }, '2026-04-04T00:00:00Z', 's3'), registered('u4', 'dave'));
    expect(await store.collection(CONTEST_WALLETS).findOne({ _id: 'u4' })).toMatchObject({ username: 'dave', season_spark: 50 });
    expect(await store.collection(CONTEST_TRACK_SCORES).findOne({ _id: 'digital:u4' })).toMatchObject({ username: 'dave' });
  });
});
