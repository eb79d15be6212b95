import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { RESONANCE_BOOSTS, RESONANCE_TRANSACTIONS, RESONANCE_WALLETS, resonanceWalletsProjection as projection } from './wallets.projection';

const at = '2026-04-10T10:00:00.000Z';
const reward = (spark: number, xp: number, source: string) =>
  recorded('RewardGranted', { user_id: 'u1', action: 'create_comment', pulse: 1, spark, signal: 0, xp, source_type: 'create_comment', source_id: source, granted_at: at });
const checkin = () => recorded('DailyCheckedIn', { user_id: 'u1', day: '2026-04-10', streak_days: 2, streak_best: 3, spark_bonus: 2, xp_bonus: 10, checked_in_at: at });
const boost = () =>
  recorded('BoostPurchased', {
    boost_id: 'b1',
    user_id: 'u1',
    target_type: 'post',
    target_id: 'p1',
    spark_spent: 5,
    boost_multiplier: 1.05,
    expires_at: '2026-04-10T15:00:00.000Z',
    created_at: at,
  });
const contest = () =>
  recorded('SparkAwarded', { user_id: 'u1', amount: 4, tracks: { digital: 4 }, source_type: 'contest:joined', source_id: 'u1', reason: 'contest:joined', awarded_at: at });

describe('resonanceWallets projection', () => {
  it('given rewards, a check-in, contest spark and a boost, then the wallet holds the balances, the level, the streak and the season totals', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, reward(2, 50, 'c1'), reward(2, 50, 'c2'), checkin(), contest(), boost());
    expect(await store.collection(RESONANCE_WALLETS).findOne({ _id: 'u1' })).toMatchObject({
      user_id: 'u1',
      pulse: 2,
      spark: 5,
      spark_lifetime: 10,
      xp: 110,
      level: 2,
      level_title: 'Newcomer',
      xp_next_level: 214,
      streak_days: 2,
      streak_best: 3,
      last_active_date: '2026-04-10',
      season_pulse: 2,
      season_spark: 4,
      sources: { create_comment: { count: 6, total: 106 }, daily_checkin: { count: 2, total: 12 }, 'contest:joined': { count: 1, total: 4 }, boost: { count: 1, total: -5 } },
    });
  });

  it('given a boost, then its ledger row spends spark with the balance after and the boost is listed', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, reward(7, 0, 'c1'), boost());
    const rows = await store.collection(RESONANCE_TRANSACTIONS).find({ currency: 'spark' }, { sort: { seq: 1 } });
    expect(rows.map((r) => [r.amount, r.balance_after, r.source_type])).toEqual([
      [7, 7, 'create_comment'],
      [-5, 2, 'boost'],
    ]);
    expect(await store.collection(RESONANCE_BOOSTS).findOne({ _id: 'b1' })).toMatchObject({ id: 'b1', target_id: 'p1', boost_multiplier: 1.05 });
  });

  it('given events applied, when they are delivered again, then nothing counts twice', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [reward(2, 5, 'c1'), checkin()];
    await applyAll(projection, store, ...events);
    await applyAll(projection, store, ...events);
    expect(await store.collection(RESONANCE_WALLETS).findOne({ _id: 'u1' })).toMatchObject({ spark: 4, xp: 15 });
    expect(await store.collection(RESONANCE_TRANSACTIONS).countDocuments({})).toBe(5);
  });
});
