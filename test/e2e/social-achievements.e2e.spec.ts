/**
 * Achievements, challenges, seasons and collectibles over HTTP (social-routes
 * §15): the catalogue of 48; achievements unlocked by what users do (a post, a
 * comment, a follow, ten posts at once), once each, with their rewards paid
 * once; the showcase toggle and the collectibles it feeds; the rotating
 * challenges, progress, and a reward claimed once under concurrent claims;
 * an admin's challenge; the season and its leaderboard from wallet credits;
 * and a rebuild from the log giving the same read models.
 */
import { rmSync } from 'node:fs';
import { CommandBus } from '@nestjs/cqrs';
import { walletStreamId } from '../../src/aggregates/contest/wallet';
import { userAchievementsStreamId } from '../../src/aggregates/gamification/user-achievements';
import { seasonOf } from '../../src/aggregates/gamification/seasons';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { GrantReward } from '../../src/modules/content/content.commands';
import { CountAchievementProgress } from '../../src/modules/gamification/achievements.commands';
import { settled, signUp, startTestApp, type TestApp, uniqueName } from '../support/app';
import { readModelSnapshot, rebuildProjections } from '../support/rebuild';

jest.setTimeout(90_000);

const P = '/api/social';

interface User {
  id: string;
  token: string;
  username: string;
}

describe('achievements, challenges, seasons and collectibles over HTTP', () => {
  let t: TestApp;
  let admin: User;
  const adminName = uniqueName('achadmin');

  const register = (): Promise<User> => signUp(t, { prefix: 'ach' });
  const store = () => t.app.get<EventStore>(EVENT_STORE);
  const rewards = async (user: User, sourceType: string) =>
    (await store().readStream(walletStreamId(user.id))).filter((e) => e.type === 'RewardGranted' && e.data.source_type === sourceType).map((e) => e.data);
  const unlocked = async (user: User) => (await t.request('GET', `${P}/achievements/${user.id}`)).body.data as { id: string; unlocked_at: string; is_showcased: boolean }[];
  const post = (user: User, title = 'Hello') => t.request('POST', `${P}/posts`, { token: user.token, body: { title, content: 'Body' } });

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: adminName });
    admin = await signUp(t, { username: adminName });
  });
  afterAll(() => t.close());

  describe('the catalogue', () => {
    it('lists 48 achievements with the contract’s fields, stable ids from slugs, 4 of them of the current season', async () => {
      const res = await t.request('GET', `${P}/achievements`);
      expect(res.status).toBe(200);
      const list = res.body.data as Record<string, unknown>[];
      expect(list).toHaveLength(48);
      expect(Object.keys(list[0]).sort()).toEqual(
        ['id', 'slug', 'name', 'description', 'icon_url', 'category', 'rarity', 'reward_pulse', 'reward_spark', 'reward_signal', 'reward_xp', 'criteria', 'is_seasonal', 'season_id'].sort(),
      );
      expect(new Set(list.map((a) => a.id)).size).toBe(48);
      expect(list.find((a) => a.slug === 'first_post')).toMatchObject({ id: 'ach_first_post', category: 'content', criteria: { event: 'post_published', count: 1 }, is_seasonal: false, season_id: null });
      const season = seasonOf(new Date()).id;
      expect(list.filter((a) => a.is_seasonal).map((a) => a.season_id)).toEqual([season, season, season, season]);
      expect((await t.request('GET', `/social/achievements`)).body.data).toEqual(list);
    });
  });

  describe('unlocking', () => {
    it('given a user who posts, comments and follows, then first_post, first_comment and first_follow unlock once, most recent first, each paid once', async () => {
      const [ann, bob] = [await register(), await register()];
      const p = await post(ann);
      expect(p.status).toBe(201);
      await settled(t);
      expect((await t.request('POST', `${P}/posts/${p.body.data.id}/comments`, { token: ann.token, body: { content: 'first!' } })).status).toBe(201);
      await settled(t);
      expect((await t.request('POST', `${P}/users/${bob.id}/follow`, { token: ann.token })).status).toBeLessThan(300);
      await settled(t);
      const mine = await unlocked(ann);
      expect(mine.map((a) => a.id)).toEqual(['ach_first_follow', 'ach_first_comment', 'ach_first_post']);
      expect(mine[0]).toMatchObject({ is_showcased: false, unlocked_at: expect.any(String), reward_spark: 5, reward_xp: 10 });
      expect((await unlocked(bob)).map((a) => a.id)).toEqual(['ach_first_follower']);
      expect((await rewards(ann, 'achievement')).map((r) => r.source_id).sort()).toEqual(['ach_first_comment', 'ach_first_follow', 'ach_first_post']);
    });

    it('given a user who publishes ten posts at once, then prolific_writer and the season’s author unlock exactly once and the count is ten', async () => {
      const cat = await register();
      const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => post(cat, `Post ${i}`)));
      expect(replies.map((r) => r.status)).toEqual(Array(10).fill(201));
      await settled(t);
      const events = await store().readStream(userAchievementsStreamId(cat.id));
      expect(events.filter((e) => e.type === 'AchievementUnlocked').map((e) => e.data.achievement_id).sort()).toEqual(['ach_first_post', 'ach_prolific_writer', `ach_season_author_${seasonOf(new Date()).id}`]);
      const counts = events.filter((e) => e.type === 'AchievementProgressRecorded' && e.data.metric === 'post_published').map((e) => e.data.count);
      expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await rewards(cat, 'achievement')).toHaveLength(3);
    });

    it('given an event counted already, when it is delivered again, then nothing more is counted or unlocked', async () => {
      const dan = await register();
      await post(dan);
      await settled(t);
      const before = await store().readStream(userAchievementsStreamId(dan.id));
      const position = before.find((e) => e.type === 'AchievementProgressRecorded')!.data.source_position as number;
      const again = new CountAchievementProgress({ userId: dan.id, metric: 'post_published', sourcePosition: position }, { actor: 'test', correlationId: 'c' });
      await Promise.all([t.app.get(CommandBus).execute(again), t.app.get(CommandBus).execute(again)]);
      expect(await store().readStream(userAchievementsStreamId(dan.id))).toHaveLength(before.length);
    });

    it('given XP enough for level 5 granted to a user, then level_5 unlocks by itself', async () => {
      const eve = await register();
      // levels 1–4 take 100 + 115 + 132 + 152 = 499 XP
      await t.app.get(CommandBus).execute(new GrantReward({ userId: eve.id, action: 'test', amounts: { xp: 500 }, sourceType: 'test', sourceId: eve.id }, { actor: 'test', correlationId: 'c' }));
      await settled(t);
      expect((await unlocked(eve)).map((a) => a.id)).toContain('ach_level_5');
    });
  });

  describe('showcase and collectibles', () => {
    it('given a new user, then the collectibles are empty at level 1, Newcomer', async () => {
      const fay = await register();
      expect((await t.request('GET', `${P}/collectibles/${fay.id}`)).body.data).toEqual({ showcased_achievements: [], level: 1, level_title: 'Newcomer' });
      expect((await t.request('GET', `${P}/collectibles/nobody-here`)).body.data).toEqual({ showcased_achievements: [], level: 1, level_title: 'Newcomer' });
    });

    it('given an unlocked achievement, when showcased, then it toggles on and off and the collectibles follow', async () => {
      const gus = await register();
      await post(gus);
      await settled(t);
      const toggle = () => t.request('POST', `${P}/achievements/ach_first_post/showcase`, { token: gus.token });
      const on = await toggle();
      expect(on.status).toBe(200);
      expect(on.body.data).toEqual({ is_showcased: true });
      const collectibles = (await t.request('GET', `${P}/collectibles/${gus.id}`)).body.data;
      expect(collectibles.showcased_achievements.map((a: { id: string }) => a.id)).toEqual(['ach_first_post']);
      expect(collectibles.showcased_achievements[0]).toMatchObject({ is_showcased: true, unlocked_at: expect.any(String), slug: 'first_post' });
      expect(collectibles.level).toBeGreaterThanOrEqual(1);
      expect((await unlocked(gus)).find((a) => a.id === 'ach_first_post')?.is_showcased).toBe(true);
      expect((await toggle()).body.data).toEqual({ is_showcased: false });
      expect((await t.request('GET', `${P}/collectibles/${gus.id}`)).body.data.showcased_achievements).toEqual([]);
    });

    it.each([['ach_first_agent'], ['no-such-achievement']])('when showcasing %s, which is not unlocked, then 404', async (id) => {
      const hal = await register();
      const res = await t.request('POST', `${P}/achievements/${id}/showcase`, { token: hal.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: 'Achievement not found or not unlocked' });
    });

    it('when showcasing without a token, then 401', async () => {
      expect((await t.request('POST', `${P}/achievements/ach_first_post/showcase`)).status).toBe(401);
    });
  });

  describe('challenges', () => {
    const today = () => new Date().toISOString().slice(0, 10);
    const daily = () => `daily-${today()}`;
    const progress = (user: User, id: string, body?: unknown) => t.request('POST', `${P}/challenges/${id}/progress`, { token: user.token, body });
    const claim = (user: User, id: string) => t.request('POST', `${P}/challenges/${id}/claim`, { token: user.token });

    it('lists today’s and this week’s rotating challenges, ending soonest first, with a signed-in caller’s progress', async () => {
      const anonymous = (await t.request('GET', `${P}/challenges`)).body.data as Record<string, unknown>[];
      const ids = anonymous.map((c) => c.id);
      expect(ids).toContain(daily());
      expect(ids.some((id) => String(id).startsWith('weekly-'))).toBe(true);
      const ends = anonymous.map((c) => String(c.ends_at));
      expect([...ends].sort()).toEqual(ends);
      expect(anonymous[0]).not.toHaveProperty('user_progress');
      const ivy = await register();
      const signed = (await t.request('GET', `${P}/challenges`, { token: ivy.token })).body.data as Record<string, unknown>[];
      expect(signed.find((c) => c.id === daily())).toMatchObject({ is_active: true, user_progress: 0, completed: false, rewarded: false });
    });

    it('given an unknown id, then 404 `Challenge not found`', async () => {
      for (const id of ['daily-2026-02-30', 'nope', 'ch_0123']) {
        const res = await t.request('GET', `${P}/challenges/${id}`);
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('Challenge not found');
      }
    });

    it('given a user, when progressing today’s challenge to its target, then it joins, completes, and later calls answer already_complete', async () => {
      const jo = await register();
      const target = (await t.request('GET', `${P}/challenges/${daily()}`)).body.data.criteria.target ?? 10;
      const first = await progress(jo, daily());
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ progress: 1, target, completed: target === 1 });
      const rest = await progress(jo, daily(), { increment: 1000 });
      expect(rest.body.data).toEqual({ progress: target, target, completed: true });
      expect((await progress(jo, daily())).body.data).toEqual({ progress: target, target, completed: true, already_complete: true });
      expect((await t.request('GET', `${P}/challenges/${daily()}`, { token: jo.token })).body.data).toMatchObject({ user_progress: target, user_target: target, completed: true, rewarded: false });
    });

    it('given a challenge not completed, when claiming, then 404; given bad increments, then 400', async () => {
      const kim = await register();
      expect((await claim(kim, daily())).body).toEqual({ success: false, error: 'Challenge not completed or not found' });
      expect((await claim(kim, 'nope')).status).toBe(404);
      for (const increment of [0, -1, 1.5, 'two', 1001]) expect((await progress(kim, daily(), { increment })).status).toBe(400);
      expect((await progress(kim, 'daily-1999-01-01')).body).toEqual({ success: false, error: 'Challenge is not active' });
      expect((await progress(kim, 'nope')).status).toBe(404);
    });

    it('given a completed challenge, when eight claims race, then one gets the rewards, the others already_claimed, and the wallet is paid once', async () => {
      const lou = await register();
      await progress(lou, daily(), { increment: 1000 });
      const replies = await Promise.all(Array.from({ length: 8 }, () => claim(lou, daily())));
      expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
      const paid = replies.filter((r) => r.body.data.rewards);
      expect(paid).toHaveLength(1);
      expect(replies.filter((r) => r.body.data.already_claimed === true)).toHaveLength(7);
      await settled(t);
      const credited = await rewards(lou, 'challenge');
      expect(credited).toHaveLength(1);
      expect(credited[0]).toMatchObject({ source_id: daily(), spark: paid[0].body.data.rewards.spark, xp: paid[0].body.data.rewards.xp });
      expect((await t.request('GET', `${P}/challenges/${daily()}`, { token: lou.token })).body.data.rewarded).toBe(true);
    });

    it('given an admin, when creating a challenge, then it is listed while active with its target; others get 403', async () => {
      const body = { title: '<b>Marathon</b>', description: 'Write a lot', criteria: { action: 'post', target: 3 }, reward_spark: 30, ends_at: new Date(Date.now() + 3_600_000).toISOString() };
      const created = await t.request('POST', `${P}/challenges`, { token: admin.token, body });
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;
      expect(created.body.data).toMatchObject({ challenge_type: 'special', created_by: admin.id, reward_spark: 30, reward_pulse: 0 });
      const listed = (await t.request('GET', `${P}/challenges`)).body.data as { id: string; title: string }[];
      expect(listed[0]).toMatchObject({ id, title: '&lt;b&gt;Marathon&lt;/b&gt;' });
      const mo = await register();
      expect((await t.request('POST', `${P}/challenges`, { token: mo.token, body })).status).toBe(403);
      expect((await progress(mo, id, { increment: 2 })).body.data).toEqual({ progress: 2, target: 3, completed: false });
      expect((await t.request('POST', `${P}/challenges`, { token: admin.token, body: { ...body, ends_at: 'tomorrow' } })).status).toBe(400);
      expect((await t.request('POST', `${P}/challenges`, { token: admin.token, body: { ...body, starts_at: body.ends_at } })).status).toBe(400);
    });
  });

  describe('seasons', () => {
    const season = seasonOf(new Date());

    it('the current season is the calendar quarter of now, active, with its seasonal achievements as rewards', async () => {
      const res = await t.request('GET', `${P}/seasons/current`);
      expect(res.body.data).toMatchObject({ id: season.id, name: season.name, starts_at: season.starts_at, ends_at: season.ends_at, is_active: true });
      expect(res.body.data.rewards).toHaveLength(4);
      const achievements = (await t.request('GET', `${P}/seasons/${season.id}/achievements`)).body.data as { season_id: string }[];
      expect(achievements.map((a) => a.season_id)).toEqual([season.id, season.id, season.id, season.id]);
      expect((await t.request('GET', `${P}/seasons/2020-q1/achievements`)).body.data[0].id).toBe('ach_season_author_2020-q1');
      expect((await t.request('GET', `${P}/seasons/nonsense/achievements`)).body.data).toEqual([]);
    });

    it('ranks users by the pulse and spark their wallets earned within the season', async () => {
      const [max, ned] = [await register(), await register()];
      const bus = t.app.get(CommandBus);
      const grant = (user: User, amounts: { pulse?: number; spark?: number }, source: string) =>
        bus.execute(new GrantReward({ userId: user.id, action: 'test', amounts, sourceType: 'season-test', sourceId: source }, { actor: 'test', correlationId: 'c' }));
      await grant(max, { pulse: 5000, spark: 4000 }, 'a');
      await grant(ned, { pulse: 3000, spark: 3000 }, 'b');
      await grant(ned, { spark: 3500 }, 'c');
      await settled(t);
      const res = await t.request('GET', `${P}/seasons/${season.id}/leaderboard?limit=2`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        { rank: 1, user_id: ned.id, username: ned.username, display_name: expect.any(String), avatar_url: null, season_pulse: 3000, season_spark: 6500, level: 1, level_title: 'Newcomer' },
        { rank: 2, user_id: max.id, username: max.username, display_name: expect.any(String), avatar_url: null, season_pulse: 5000, season_spark: 4000, level: 1, level_title: 'Newcomer' },
      ]);
      expect(res.body.meta).toMatchObject({ limit: 2, offset: 0, has_more: true });
      expect((await t.request('GET', `${P}/seasons/anything/leaderboard?limit=1`)).body.data[0].user_id).toBe(ned.id);
      expect((await t.request('GET', `${P}/seasons/2020-q1/leaderboard`)).body.data).toEqual([]);
      expect((await t.request('GET', `${P}/seasons/${season.id}/leaderboard?limit=ten`)).status).toBe(400);
    });
  });
});

describe('projections:rebuild of the achievement read models', () => {
  it('given unlocks, showcases, challenge progress and claims, when rebuilt, then the read models equal the live ones', async () => {
    const t = await startTestApp();
    const [a, b] = [await signUp(t, { prefix: 'achrb' }), await signUp(t, { prefix: 'achrb' })];
    await t.request('POST', `${P}/posts`, { token: a.token, body: { title: 'one', content: 'x' } });
    await t.request('POST', `${P}/users/${b.id}/follow`, { token: a.token });
    await t.request('POST', `${P}/resonance/daily-checkin`, { token: b.token });
    await settled(t);
    await t.request('POST', `${P}/achievements/ach_first_post/showcase`, { token: a.token });
    const daily = `daily-${new Date().toISOString().slice(0, 10)}`;
    await t.request('POST', `${P}/challenges/${daily}/progress`, { token: b.token, body: { increment: 1000 } });
    await t.request('POST', `${P}/challenges/${daily}/claim`, { token: b.token });
    await t.request('POST', `${P}/challenges/${daily}/progress`, { token: a.token });
    await settled(t);
    await t.close(false);
    const collections = ['user_achievements', 'challenge_entries', 'challenges', 'season_standings'];
    const live = await readModelSnapshot(t.dataDir, collections);
    expect(live.user_achievements.length).toBeGreaterThanOrEqual(4);
    expect(live.challenge_entries).toHaveLength(2);
    await rebuildProjections(t.dataDir);
    expect(await readModelSnapshot(t.dataDir, collections)).toEqual(live);
    rmSync(t.dataDir, { recursive: true, force: true });
  });
});
