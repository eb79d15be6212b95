import { deciderKit } from '../../../test/support/decider-kit';
import { type BoostPurchased, type DailyCheckedIn, joinAward, type SparkAwarded, type WalletCommand, walletDecider, walletEntries, type WalletEvent } from './wallet';

const now = new Date('2026-04-10T10:00:00.000Z');
const { given } = deciderKit(walletDecider, now);

const award = (extra: Partial<Extract<WalletCommand, { kind: 'award' }>> = {}): WalletCommand => ({
  kind: 'award',
  userId: 'u1',
  tracks: { digital: 25, human_wellness: 15 },
  sourceType: 'ScoringEventReported',
  sourceId: 'benchmarks_proven:b1',
  reason: 'benchmarks_proven',
  ...extra,
});

const awarded = (extra: Partial<SparkAwarded['data']> = {}): WalletEvent => ({
  type: 'SparkAwarded',
  data: {
    user_id: 'u1',
    amount: 40,
    tracks: { digital: 25, human_wellness: 15 },
    source_type: 'ScoringEventReported',
    source_id: 'benchmarks_proven:b1',
    reason: 'benchmarks_proven',
    awarded_at: now.toISOString(),
    ...extra,
  },
});

describe('wallet', () => {
  it('given an empty wallet, when awarding, then SparkAwarded carries the sum, the tracks and the source', () =>
    given().when(award()).then(awarded()));

  it('given an empty wallet, when awarding, then the balance is the sum', () => expect(given().when(award()).state().seasonSpark).toBe(40));

  it('given an award from a source, when the same source is awarded again (redelivery), then nothing is recorded', () =>
    given(awarded()).when(award()).thenNothing());

  it('given an award from a source, when the same source is awarded other points, then nothing is recorded', () =>
    given(awarded()).when(award({ tracks: { digital: 999 } })).thenNothing());

  it('given an award, when another source is awarded, then the balance adds up', () =>
    expect(given(awarded()).when(award({ sourceId: 'recipe_published:r1', tracks: { digital: 100 } })).state().seasonSpark).toBe(140));

  it('given an award, when the same source id comes under another source type, then it is another source', () =>
    expect(given(awarded()).when(award({ sourceType: 'ContestJoined' })).events()).toHaveLength(1));

  it.each([
    ['no points', { tracks: {} }, 'an award must be positive'],
    ['zero points', { tracks: { digital: 0 } }, 'award points must be positive integers'],
    ['negative points', { tracks: { digital: -5 } }, 'award points must be positive integers'],
    ['fractional points', { tracks: { digital: 1.5 } }, 'award points must be positive integers'],
    ['no source', { sourceId: '' }, 'an award needs a source'],
  ])('given an empty wallet, when awarding %s, then it is refused as invalid', (_, extra, message) =>
    given().when(award(extra as Partial<Extract<WalletCommand, { kind: 'award' }>>)).thenRefused('invalid', message));

  it('given an empty wallet, when the join award is paid, then 1 spark on the joined track, its source the user', () =>
    given()
      .when({ kind: 'award', ...joinAward('u9', 'embodied') })
      .then({
        type: 'SparkAwarded',
        data: {
          user_id: 'u9',
          amount: 1,
          tracks: { embodied: 1 },
          source_type: 'contest:joined',
          source_id: 'u9',
          reason: 'contest:joined',
          awarded_at: now.toISOString(),
        },
      }));
});

describe('wallet rewards (social-routes §21.3)', () => {
  const reward = (sourceId = 'p1'): WalletCommand => ({ kind: 'reward', userId: 'u1', action: 'create_post', amounts: { spark: 5, signal: 0.01, xp: 10 }, sourceType: 'PostPublished', sourceId });

  it('given an empty wallet, when rewarded, then RewardGranted carries the amounts and the reputation adds them', () => {
    const result = given().when(reward());
    expect(result.events()).toEqual([
      { type: 'RewardGranted', data: { user_id: 'u1', action: 'create_post', pulse: 0, spark: 5, signal: 0.01, xp: 10, source_type: 'PostPublished', source_id: 'p1', granted_at: now.toISOString() } },
    ]);
    expect(result.state().reputation).toEqual({ pulse: 0, spark: 5, signal: 0.01, xp: 10 });
    expect(result.state().seasonSpark).toBe(0);
  });

  it('given a reward for a source, when the same source is rewarded again, then nothing is recorded', () => {
    const past = given().when(reward()).events();
    given(...past).when(reward()).thenNothing();
  });
});

describe('wallet economy (social-routes §15)', () => {
  const rewarded = (spark: number, sourceId = 'p1'): WalletEvent => ({
    type: 'RewardGranted',
    data: { user_id: 'u1', action: 'create_post', pulse: 0, spark, signal: 0, xp: 0, source_type: 'create_post', source_id: sourceId, granted_at: now.toISOString() },
  });
  const boost = (spark: number, extra: Partial<Extract<WalletCommand, { kind: 'boost' }>> = {}): WalletCommand => ({
    kind: 'boost',
    userId: 'u1',
    boostId: 'b1',
    targetType: 'post',
    targetId: 'p9',
    spark,
    ...extra,
  });
  const checkin: WalletCommand = { kind: 'checkin', userId: 'u1' };
  const at = (iso: string) => new Date(iso);

  it('given no events, when opened, then WalletOpened', () =>
    given().when({ kind: 'open', userId: 'u1' }).then({ type: 'WalletOpened', data: { user_id: 'u1', opened_at: now.toISOString() } }));

  it('given a wallet with any event, when opened again, then nothing is recorded', () => given(rewarded(5)).when({ kind: 'open', userId: 'u1' }).thenNothing());

  it('given 20 spark, when boosting with 10, then BoostPurchased with multiplier 1.1 lasting 10 hours and 10 spark left', () => {
    const result = given(rewarded(20)).when(boost(10));
    expect(result.events()).toEqual([
      {
        type: 'BoostPurchased',
        data: {
          boost_id: 'b1',
          user_id: 'u1',
          target_type: 'post',
          target_id: 'p9',
          spark_spent: 10,
          boost_multiplier: 1.1,
          expires_at: '2026-04-10T20:00:00.000Z',
          created_at: now.toISOString(),
        },
      },
    ]);
    expect(result.state().reputation.spark).toBe(10);
  });

  it('given 500 spark, when boosting with 250, then the multiplier stops at 2', () =>
    expect((given(rewarded(500)).when(boost(250)).events()[0] as BoostPurchased).data.boost_multiplier).toBe(2));

  it('given 7 spark, when boosting with 7, then the multiplier is 1.07 and nothing is left', () => {
    const result = given(rewarded(7)).when(boost(7));
    expect((result.events()[0] as BoostPurchased).data.boost_multiplier).toBe(1.07);
    expect(result.state().reputation.spark).toBe(0);
  });

  it('given 9 spark, when boosting with 10, then it is refused with the balance', () =>
    given(rewarded(9)).when(boost(10)).thenRefused('invalid', 'Insufficient Spark (have 9)'));

  it.each([
    ['zero spark', { spark: 0 }],
    ['fractional spark', { spark: 1.5 }],
    ['no target type', { targetType: '' }],
    ['no target id', { targetId: '' }],
  ])('given spark, when boosting with %s, then it is refused as invalid', (_, extra) =>
    given(rewarded(100)).when(boost((extra as { spark?: number }).spark ?? 10, extra as Partial<Extract<WalletCommand, { kind: 'boost' }>>)).thenRefused('invalid'));

  it('given contest spark, when boosting, then the contest spark is spendable but season_spark stays', () => {
    const contest: WalletEvent = {
      type: 'SparkAwarded',
      data: { user_id: 'u1', amount: 20, tracks: { digital: 20 }, source_type: 's', source_id: '1', reason: 'r', awarded_at: now.toISOString() },
    };
    const state = given(contest).when(boost(15)).state();
    expect([state.reputation.spark, state.seasonSpark]).toEqual([5, 20]);
  });

  it('given no check-in, when checking in, then day 1 of the streak with spark 1 and XP 5', () =>
    given()
      .when(checkin)
      .then({ type: 'DailyCheckedIn', data: { user_id: 'u1', day: '2026-04-10', streak_days: 1, streak_best: 1, spark_bonus: 1, xp_bonus: 5, checked_in_at: now.toISOString() } }));

  it('given a check-in today, when checking in again late the same UTC day, then nothing is recorded', () => {
    const past = given().when(checkin, at('2026-04-10T00:00:01Z')).events();
    given(...past).when(checkin, at('2026-04-10T23:59:59Z')).thenNothing();
  });

  it('given check-ins on two days in a row, when checking in on the third, then day 3 with spark 3 and XP 15', () => {
    const d1 = given().when(checkin, at('2026-04-08T23:00:00Z')).events();
    const d2 = given(...d1).when(checkin, at('2026-04-09T00:30:00Z')).events();
    const d3 = given(...d1, ...d2).when(checkin, at('2026-04-10T12:00:00Z')).events()[0] as DailyCheckedIn;
    expect([d3.data.streak_days, d3.data.streak_best, d3.data.spark_bonus, d3.data.xp_bonus]).toEqual([3, 3, 3, 15]);
  });

  it('given a 2-day streak and a missed day, when checking in, then the streak resets to 1 and the best stays 2', () => {
    const d1 = given().when(checkin, at('2026-04-06T10:00:00Z')).events();
    const d2 = given(...d1).when(checkin, at('2026-04-07T10:00:00Z')).events();
    const d4 = given(...d1, ...d2).when(checkin, at('2026-04-09T10:00:00Z')).events()[0] as DailyCheckedIn;
    expect([d4.data.streak_days, d4.data.streak_best, d4.data.spark_bonus]).toEqual([1, 2, 1]);
  });

  it('given a check-in, then its ledger entries are spark = day and XP = 5 × day, the source the day', () => {
    const event = given().when(checkin).events()[0];
    expect(walletEntries(event)).toEqual([
      { currency: 'spark', amount: 1, source_type: 'daily_checkin', source_id: '2026-04-10', description: 'Daily check-in (day 1)' },
      { currency: 'xp', amount: 5, source_type: 'daily_checkin', source_id: '2026-04-10', description: 'Daily check-in (day 1)' },
    ]);
  });

  it('given a boost, then its ledger entry spends spark, the source the boost', () =>
    expect(walletEntries(given(rewarded(10)).when(boost(10)).events()[0])).toEqual([
      { currency: 'spark', amount: -10, source_type: 'boost', source_id: 'b1', description: 'Boost post p9' },
    ]));
});

describe('wallet holds and ad revenue shares (social-routes §16)', () => {
  const funded = (spark: number): WalletEvent => ({
    type: 'RewardGranted',
    data: { user_id: 'u1', action: 'test', pulse: 0, spark, signal: 0, xp: 0, source_type: 'test', source_id: `s${spark}`, granted_at: now.toISOString() },
  });
  const hold = (holdId: string, amount: number): WalletCommand => ({ kind: 'hold', userId: 'u1', holdId, purpose: 'ad_budget', amount });
  const release = (holdId: string, amount: number): WalletCommand => ({ kind: 'release', userId: 'u1', holdId, amount });
  const share = (impressionId: string, shareMilli: number): WalletCommand => ({ kind: 'shareAdRevenue', userId: 'u1', impressionId, adId: 'ad1', nodeId: 'n1', shareMilli });

  it('given 120 spark, when holding 100 then 50, then the second is refused with Insufficient Spark', () => {
    const held = given(funded(120)).when(hold('a1', 100)).events();
    expect(held).toEqual([{ type: 'SparkHeld', data: { user_id: 'u1', hold_id: 'a1', purpose: 'ad_budget', amount: 100, held_at: now.toISOString() } }]);
    given(funded(120), ...held).when(hold('a2', 50)).thenRefused('invalid', 'Insufficient Spark');
    expect(given(funded(120), ...held).state().reputation.spark).toBe(20);
  });

  it('given a hold, when the same hold id is held again, then nothing', () => {
    const held = given(funded(120)).when(hold('a1', 100)).events();
    given(funded(120), ...held).when(hold('a1', 100)).thenNothing();
  });

  it('given a hold of 100, when 48.9 are released, then the balance gets 48.9 back, once', () => {
    const held = given(funded(120)).when(hold('a1', 100)).events();
    const released = given(funded(120), ...held).when(release('a1', 48.9));
    expect(released.events()).toEqual([{ type: 'SparkHoldReleased', data: { user_id: 'u1', hold_id: 'a1', purpose: 'ad_budget', held: 100, released: 48.9, released_at: now.toISOString() } }]);
    expect(released.state().reputation.spark).toBe(68.9);
    given(funded(120), ...held, ...released.events()).when(release('a1', 48.9)).thenNothing();
  });

  it('given a hold of 100, when releasing more or an unknown hold, then refused', () => {
    const held = given(funded(120)).when(hold('a1', 100)).events();
    given(funded(120), ...held).when(release('a1', 100.01)).thenRefused('invalid');
    given(funded(120), ...held).when(release('zz', 1)).thenRefused('not_found');
  });

  it('given shares of 0.45 spark each, then whole spark are paid as the accrued amount reaches them, the fraction carried', () => {
    const first = given().when(share('i1', 450)).events();
    const second = given(...first).when(share('i2', 450)).events();
    const third = given(...first, ...second).when(share('i3', 450));
    expect([first, second, third.events()].map((e) => (e[0].data as { paid: number; pending: number }))).toEqual([
      expect.objectContaining({ paid: 0, pending: 0.45 }),
      expect.objectContaining({ paid: 0, pending: 0.9 }),
      expect.objectContaining({ paid: 1, pending: 0.35 }),
    ]);
    expect(third.state().reputation.spark).toBe(1);
    given(...first, ...second, ...third.events()).when(share('i3', 450)).thenNothing();
  });
});
