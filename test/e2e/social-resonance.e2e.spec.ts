/**
 * The wallet economy over HTTP (social-routes §15, the first ten
 * gamification routes): a wallet created on first read, rewards from posts
 * and comments in the ledger, the daily check-in, boosts that spend spark
 * and raise a post's boost_score, concurrent boosts that never overdraw, the
 * leaderboard and the breakdown. One app for the file.
 */
import { Clock } from '../../src/infrastructure/clock';
import { settled, signUp, startTestApp, type TestApp } from '../support/app';

jest.setTimeout(90_000);

const P = '/api/social';
const R = `${P}/resonance`;

interface User {
  id: string;
  token: string;
}

describe('the wallet economy over HTTP', () => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let carol: User;
  let postId: string;

  const register = (): Promise<User> => signUp(t, { prefix: 'res' });
  const get = (user: User | null, path: string) => t.request('GET', `${R}${path}`, user ? { token: user.token } : {});
  const boost = (user: User, body: Record<string, unknown>) => t.request('POST', `${R}/boost`, { token: user.token, body });

  beforeAll(async () => {
    t = await startTestApp();
    [alice, bob, carol] = [await register(), await register(), await register()];
    postId = (await t.request('POST', `${P}/posts`, { token: alice.token, body: { title: 'Boost me', content: 'Body' } })).body.data.id;
    for (let i = 0; i < 3; i++) expect((await t.request('POST', `${P}/posts/${postId}/comments`, { token: bob.token, body: { content: `c${i}` } })).status).toBe(201);
    await settled(t);
  });
  afterAll(async () => t?.close());

  it('given a user who never read a wallet, when another reads it, then 404 Wallet not found, and breakdown 404 User not found', async () => {
    const res = await get(null, `/wallet/${carol.id}`);
    expect([res.status, res.body]).toEqual([404, { success: false, error: 'Wallet not found' }]);
    expect((await get(null, `/breakdown/${carol.id}`)).body.error).toBe('User not found');
  });

  it('given no wallet, when the user reads their own, then a zero wallet of the §0.5 shape is created and then readable by others', async () => {
    const own = await get(carol, '/wallet');
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual({
      user_id: carol.id,
      pulse: 0,
      spark: 0,
      spark_lifetime: 0,
      signal: 0,
      level: 1,
      level_title: 'Newcomer',
      xp: 0,
      xp_next_level: 100,
      streak_days: 0,
      streak_best: 0,
      last_active_date: null,
      season_pulse: 0,
      season_spark: 0,
    });
    expect((await get(null, `/wallet/${carol.id}`)).body.data).toEqual(own.body.data);
  });

  it('given no token, when reading the own wallet, the ledger, the streak or checking in, then 401', async () => {
    for (const path of ['/wallet', '/transactions', '/level-info', '/streak']) expect((await get(null, path)).status).toBe(401);
    expect((await t.request('POST', `${R}/daily-checkin`)).status).toBe(401);
    expect((await t.request('POST', `${R}/boost`, { body: { target_type: 'post', target_id: postId } })).status).toBe(401);
  });

  it('given three comments, when bob reads his ledger, then three create_comment rows of 2 spark beside the first_comment onboarding step, newest first, balances adding up', async () => {
    const res = await get(bob, '/transactions?currency=spark');
    expect(res.status).toBe(200);
    expect(res.body.meta).toBeUndefined();
    const rows = res.body.data as { amount: number; balance_after: number; source_type: string }[];
    expect(rows.filter((r) => r.source_type === 'create_comment').map((r) => r.amount)).toEqual([2, 2, 2]);
    // his first comment also completed the onboarding step first_comment (5 spark), whenever its saga got to it
    expect(rows.filter((r) => r.source_type === 'onboarding_step').map((r) => r.amount)).toEqual([5]);
    rows.forEach((row, i) => expect(row.balance_after - row.amount).toBe(rows[i + 1]?.balance_after ?? 0));
    expect(Object.keys(rows[0]).sort()).toEqual(['amount', 'balance_after', 'created_at', 'currency', 'description', 'id', 'source_id', 'source_type', 'user_id']);
    expect((await get(bob, '/transactions?currency=xp&limit=1')).body.data).toHaveLength(1);
  });

  it.each([['currency=gold'], ['limit=abc'], ['offset=-1']])('given a bad query %s, when reading the ledger, then 400', async (query) =>
    expect((await get(bob, `/transactions?${query}`)).status).toBe(400));

  it('given a first check-in, when checking in twice the same day, then spark 1 and XP 5 once, then already_checked_in', async () => {
    const first = await t.request('POST', `${R}/daily-checkin`, { token: carol.token });
    expect([first.status, first.body.data]).toEqual([200, { streak_days: 1, streak_best: 1, spark_bonus: 1, xp_bonus: 5 }]);
    const again = await t.request('POST', `${R}/daily-checkin`, { token: carol.token });
    expect(again.body.data).toEqual({ streak_days: 1, already_checked_in: true });
    await settled(t);
    const wallet = (await get(carol, '/wallet')).body.data;
    // the bonus once, and the first_checkin achievement (5 spark, 10 XP)
    expect([wallet.spark, wallet.xp, wallet.streak_days, wallet.last_active_date]).toEqual([1 + 5, 5 + 10, 1, new Date().toISOString().slice(0, 10)]);
    expect((await get(carol, '/streak')).body.data).toEqual({ streak_days: 1, streak_best: 1, last_active_date: wallet.last_active_date });
  });

  it('given XP, when reading level-info, then the level from the formula with all the titles', async () => {
    const res = await get(bob, '/level-info');
    // 3 comments (5 XP each) and the first_comment achievement (10 XP)
    expect(res.body.data).toMatchObject({ level: 1, title: 'Newcomer', xp: 25, xp_next: 100, progress_pct: 25 });
    expect(res.body.data.all_titles).toHaveLength(11);
  });

  it('given 16 spark (three comments, the first_comment step and achievement), when boosting with 17, then 400 Insufficient Spark (have 16) and nothing spent', async () => {
    const res = await boost(bob, { target_type: 'post', target_id: postId, spark_amount: 17 });
    expect([res.status, res.body.error]).toEqual([400, 'Insufficient Spark (have 16)']);
    expect((await get(bob, '/wallet')).body.data.spark).toBe(16);
  });

  it.each([
    [{ target_id: 'x' }, 'target_type and target_id are required'],
    [{ target_type: 'post', target_id: 'x', spark_amount: 0 }, 'spark_amount must be an integer from 1 to 10000'],
    [{ target_type: 'post', target_id: 'x', spark_amount: '5' }, 'spark_amount must be an integer from 1 to 10000'],
    [{ target_type: 'post', target_id: 'x', spark_amount: 1e308 }, 'spark_amount must be an integer from 1 to 10000'],
    [{ target_type: { $gt: '' }, target_id: 'x' }, 'target_type and target_id are required'],
  ])('given a bad boost body %j, then 400 with a clear message', async (body, message) => {
    const res = await boost(bob, body);
    expect([res.status, res.body.error]).toEqual([400, message]);
  });

  it("given spark, when bob boosts alice's post with 4, then the boost, his spark spent, the post's boost_score and its active boosts", async () => {
    const res = await boost(bob, { target_type: 'post', target_id: postId, spark_amount: 4 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ user_id: bob.id, target_type: 'post', target_id: postId, spark_spent: 4, boost_multiplier: 1.04 });
    expect(Date.parse(res.body.data.expires_at) - Date.parse(res.body.data.created_at)).toBe(4 * 3600_000);
    await settled(t);
    // 16 − 4, and the first_boost achievement's 5 spark
    expect((await get(bob, '/wallet')).body.data).toMatchObject({ spark: 17, spark_lifetime: 21 });
    const ledger = (await get(bob, '/transactions?currency=spark&limit=2')).body.data as { source_type: string }[];
    expect(ledger.find((row) => row.source_type === 'boost')).toMatchObject({ amount: -4, balance_after: 12, source_type: 'boost', source_id: res.body.data.id });
    expect((await get(null, `/boosts/post/${postId}`)).body.data).toEqual([res.body.data]);
    expect((await t.request('GET', `${P}/posts/${postId}`)).body.data.boost_score).toBe(1.04);
  });

  it('given a wallet whose spark covers 5 boosts of 3, when 20 boosts run at once, then exactly 5 succeed, the rest 400, and the ledger adds up', async () => {
    const dave = await register();
    for (let i = 0; i < 6; i++) await t.request('POST', `${P}/posts/${postId}/comments`, { token: dave.token, body: { content: `d${i}` } });
    // a first boost earns the first_boost achievement: paid before the race, so nothing arrives during it
    expect((await boost(dave, { target_type: 'post', target_id: postId, spark_amount: 3 })).status).toBe(200);
    await settled(t);
    const before = (await get(dave, '/wallet')).body.data.spark;
    expect(before).toBe(6 * 2 + 5 + 5 - 3 + 5); // six comments, the first_comment onboarding step and achievement, the first boost and its achievement
    const results = await Promise.all(Array.from({ length: 20 }, () => boost(dave, { target_type: 'post', target_id: postId, spark_amount: 3 })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(Math.floor(before / 3));
    expect(statuses.filter((s) => s === 400)).toHaveLength(20 - Math.floor(before / 3));
    expect(new Set(results.filter((r) => r.status === 400).map((r) => r.body.error))).toEqual(new Set([`Insufficient Spark (have ${before % 3})`]));
    const wallet = (await get(dave, '/wallet')).body.data;
    expect(wallet.spark).toBe(before - 3 * Math.floor(before / 3));
    const ledger = (await get(dave, '/transactions?currency=spark&limit=100')).body.data as { amount: number; balance_after: number }[];
    expect(ledger.reduce((sum, row) => sum + row.amount, 0)).toBe(wallet.spark);
    expect(ledger.every((row) => row.balance_after >= 0)).toBe(true);
    expect(ledger[0].balance_after).toBe(wallet.spark);
  });

  it('given wallets, when reading the leaderboard by spark, then ranked by lifetime spark with the users’ names and a page meta', async () => {
    const res = await get(null, '/leaderboard?currency=spark&limit=2');
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ limit: 2, offset: 0 });
    const [first, second] = res.body.data;
    expect(first.rank).toBe(1);
    expect(second.rank).toBe(2);
    expect(first.spark_lifetime).toBeGreaterThanOrEqual(second.spark_lifetime);
    expect(first).toHaveProperty('username');
    expect(first).toHaveProperty('user_type', 'human');
    expect((await get(null, '/leaderboard?currency=gold')).status).toBe(400);
  });

  it('given rewards and a boost, when reading the breakdown, then the wallet and per source type the rows and their sum', async () => {
    const res = await get(null, `/breakdown/${bob.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ user_id: bob.id, spark: 17 });
    // the first_comment and first_boost achievements pay 5 spark and 10 XP each: two rows each
    expect(res.body.data.sources).toEqual({ create_comment: { count: 6, total: 21 }, onboarding_step: { count: 1, total: 5 }, achievement: { count: 4, total: 30 }, boost: { count: 1, total: -4 } });
  });

  it('given a region nobody is in, when reading the leaderboard of it, then an empty page', async () => {
    const res = await get(null, '/leaderboard?region=nowhere');
    expect([res.body.data, res.body.meta.total]).toEqual([[], 0]);
  });

  describe('as days pass (the clock moved)', () => {
    const DAY = 86_400_000;
    let base = 0;
    beforeEach(() => (base = Date.now()));
    /** the service's clock, `ms` after the test began */
    const later = (ms: number) => jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(base + ms));
    afterEach(() => jest.restoreAllMocks());

    it('given a check-in today, when checking in tomorrow and then after a missed day, then streak 2 (spark 2, XP 10), then back to 1 with best 2', async () => {
      const erin = await register();
      later(0);
      await t.request('POST', `${R}/daily-checkin`, { token: erin.token });
      later(DAY);
      const second = await t.request('POST', `${R}/daily-checkin`, { token: erin.token });
      expect(second.body.data).toEqual({ streak_days: 2, streak_best: 2, spark_bonus: 2, xp_bonus: 10 });
      later(3 * DAY);
      const fourth = await t.request('POST', `${R}/daily-checkin`, { token: erin.token });
      expect(fourth.body.data).toEqual({ streak_days: 1, streak_best: 2, spark_bonus: 1, xp_bonus: 5 });
      // the bonuses (spark 4, XP 20) and the first_checkin achievement (spark 5, XP 10)
      expect((await get(erin, '/wallet')).body.data).toMatchObject({ spark: 9, xp: 30, streak_days: 1, streak_best: 2 });
    });

    it("given boosts of 3 and 4 spark, when 4 hours and a minute have passed, then the target's boosts list none", async () => {
      expect((await get(null, `/boosts/post/${postId}`)).body.data.length).toBeGreaterThan(0);
      later(4 * 3600_000 + 60_000);
      expect((await get(null, `/boosts/post/${postId}`)).body.data).toEqual([]);
    });
  });
});
