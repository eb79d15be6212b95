import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { SEASON_STANDINGS, seasonStandingsProjection as projection } from './season-standings.projection';

const reward = (pulse: number, spark: number, at: string) =>
  recorded('RewardGranted', { user_id: 'ann', action: 'x', pulse, spark, signal: 0, xp: 3, source_type: 'x', source_id: `${pulse}:${spark}:${at}`, granted_at: at });

describe('season standings projection', () => {
  it('given credits in two quarters, then each season sums the pulse and spark earned within it', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      reward(5, 10, '2026-12-01T00:00:00.000Z'),
      recorded('DailyCheckedIn', { user_id: 'ann', day: '2026-12-02', streak_days: 3, streak_best: 3, spark_bonus: 3, xp_bonus: 15, checked_in_at: '2026-12-02T00:00:00.000Z' }),
      reward(1, 0, '2027-01-01T00:00:00.000Z'),
    );
    expect(await store.collection(SEASON_STANDINGS).findOne({ _id: '2026-q4:ann' })).toMatchObject({ season_pulse: 5, season_spark: 13, season_total: 18 });
    expect(await store.collection(SEASON_STANDINGS).findOne({ _id: '2027-q1:ann' })).toMatchObject({ season_pulse: 1, season_spark: 0, season_total: 1 });
  });

  it('given a credit applied twice (a replay), then it counts once; an XP-only credit makes no standing', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const event = reward(2, 2, '2026-12-01T00:00:00.000Z');
    await applyAll(projection, store, event, event, reward(0, 0, '2026-11-01T00:00:00.000Z'));
    expect(await store.collection(SEASON_STANDINGS).find({})).toEqual([expect.objectContaining({ _id: '2026-q4:ann', season_total: 4 })]);
  });
});
