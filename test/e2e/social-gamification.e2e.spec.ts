/**
 * Ratings, trust and onboarding over HTTP (social-routes §15): a rating per
 * (rater, rated, context, dimension), revised on a repeat and never doubled
 * by concurrent repeats; trust weighted by the rater's wallet signal, taken
 * when the rating is given; onboarding's eight steps, with the 50 spark bonus
 * paid once even when the last two steps complete concurrently. One app for
 * the file.
 */
import { CommandBus } from '@nestjs/cqrs';
import { walletStreamId } from '../../src/aggregates/contest/wallet';
import { ONBOARDING_STEPS } from '../../src/aggregates/gamification/onboarding';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { GrantReward } from '../../src/modules/content/content.commands';
import { settled, signUp, startTestApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

const P = '/api/social';

interface User {
  id: string;
  token: string;
}

describe('gamification over HTTP', () => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let carol: User;

  const register = (): Promise<User> => signUp(t, { prefix: 'gam' });
  const rate = (rater: User, body: Record<string, unknown>) => t.request('POST', `${P}/ratings`, { token: rater.token, body });
  const walletEvents = async (user: User) => (await t.app.get<EventStore>(EVENT_STORE).readStream(walletStreamId(user.id))).filter((e) => e.type === 'RewardGranted');

  beforeAll(async () => {
    t = await startTestApp();
    [alice, bob, carol] = [await register(), await register(), await register()];
  });
  afterAll(() => t.close());

  describe('ratings', () => {
    it('given a user, when another rates them, then the rating is answered and read back (the defect of §23 fixed)', async () => {
      const res = await rate(alice, { rated_id: bob.id, context_type: 'post', context_id: 'p1', dimension: 'skill', score: 4, comment: '<b>good</b>' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ rater_id: alice.id, rated_id: bob.id, dimension: 'skill', score: 4, comment: '&lt;b&gt;good&lt;/b&gt;', weight: 0.5 });
      const summary = await t.request('GET', `${P}/ratings/${bob.id}`);
      expect(summary.body.data).toEqual({ dimensions: { skill: 4, usefulness: 0, reliability: 0, creativity: 0 }, composite_trust: 1, total_ratings: 1 });
    });

    it('given a rating, when the same key is rated again, then it is revised, not doubled', async () => {
      await rate(alice, { rated_id: carol.id, context_type: 'post', context_id: 'p2', dimension: 'usefulness', score: 2 });
      const again = await rate(alice, { rated_id: carol.id, context_type: 'post', context_id: 'p2', dimension: 'usefulness', score: 5 });
      expect(again.body.data.score).toBe(5);
      const received = await t.request('GET', `${P}/ratings/${carol.id}/received`);
      expect(received.body.data).toHaveLength(1);
      expect(received.body.meta).toEqual({ total: 1, limit: 50, offset: 0, has_more: false });
      expect((await t.request('GET', `${P}/trust/${carol.id}`)).body.data).toMatchObject({ avg_usefulness: 5, total_ratings_received: 1, composite_trust: 1.5 });
    });

    it('given one key, when rated concurrently eight times, then there is one rating', async () => {
      const scores = [1, 2, 3, 4, 5, 1, 2, 3];
      const replies = await Promise.all(scores.map((score) => rate(bob, { rated_id: carol.id, context_type: 'task', context_id: 't1', dimension: 'reliability', score })));
      expect(replies.map((r) => r.status)).toEqual(scores.map(() => 200));
      await settled(t);
      const ofContext = await t.request('GET', `${P}/ratings/context/task/t1`);
      expect(ofContext.body.data).toHaveLength(1);
      expect((await t.request('GET', `${P}/trust/${carol.id}`)).body.data.total_ratings_received).toBe(2);
    });

    it('when rating yourself, then 400 with a clear message', async () => {
      const res = await rate(alice, { rated_id: alice.id, dimension: 'skill', score: 3 });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Cannot rate yourself');
    });

    it('when rating an unknown user, then 404', async () => {
      const res = await rate(alice, { rated_id: 'nobody-here', dimension: 'skill', score: 3 });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('User not found');
    });

    it.each([
      [{ dimension: 'skill', score: 3 }, 'rated_id is required'],
      [{ rated_id: 'x', dimension: 'charm', score: 3 }, 'dimension must be one of skill, usefulness, reliability, creativity'],
      [{ rated_id: 'x', dimension: 'skill', score: 6 }, 'score must be an integer from 1 to 5'],
      [{ rated_id: 'x', dimension: 'skill', score: '4' }, 'score must be an integer from 1 to 5'],
    ])('given the body %p, then 400 %p', async (body, error) => {
      const res = await rate(alice, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
    });

    it('given a rater with 20 signal in their wallet, then their score weighs 2 and the weight stays recorded', async () => {
      const [dave, erin] = [await register(), await register()];
      await t.app.get(CommandBus).execute(
        new GrantReward({ userId: dave.id, action: 'test', amounts: { signal: 20 }, sourceType: 'test', sourceId: dave.id }, { actor: 'test', correlationId: 'c' }),
      );
      expect((await rate(dave, { rated_id: erin.id, dimension: 'creativity', score: 5 })).body.data.weight).toBe(2);
      expect((await rate(alice, { rated_id: erin.id, dimension: 'creativity', score: 1 })).body.data.weight).toBe(0.5);
      // (5·2 + 1·0.5) / 2.5 = 4.2
      expect((await t.request('GET', `${P}/trust/${erin.id}`)).body.data).toMatchObject({ avg_creativity: 4.2, composite_trust: 0.63 });
    });

    it('given ratings given, then only their rater may list them', async () => {
      const own = await t.request('GET', `${P}/ratings/${alice.id}/given?limit=1`, { token: alice.token });
      expect(own.status).toBe(200);
      expect(own.body.data).toHaveLength(1);
      expect(own.body.meta.has_more).toBe(true);
      const other = await t.request('GET', `/social/ratings/${alice.id}/given`, { token: bob.token });
      expect(other.status).toBe(403);
      expect(other.body.error).toBe('Can only view your own given ratings');
    });

    it('given a non-numeric limit, then 400', async () => {
      expect((await t.request('GET', `${P}/ratings/${bob.id}/received?limit=ten`)).status).toBe(400);
    });

    it('given an unrated user, then zeros; given an unknown user, then /trust is 404', async () => {
      const nobody = await register();
      expect((await t.request('GET', `${P}/ratings/${nobody.id}`)).body.data).toEqual({
        dimensions: { skill: 0, usefulness: 0, reliability: 0, creativity: 0 },
        composite_trust: 0,
        total_ratings: 0,
      });
      expect((await t.request('GET', `${P}/trust/${nobody.id}`)).body.data.composite_trust).toBe(0);
      expect((await t.request('GET', `${P}/trust/nobody-here`)).status).toBe(404);
    });
  });

  describe('onboarding', () => {
    const complete = (user: User, step: unknown) => t.request('POST', `${P}/onboarding/complete-step`, { token: user.token, body: { step } });

    it('given a new user, then the progress lists eight steps, none done, welcome first', async () => {
      const user = await register();
      const res = await t.request('GET', `${P}/onboarding/progress`, { token: user.token });
      expect(res.body.data).toMatchObject({ user_id: user.id, steps_completed: [], current_step: 'welcome', completed_at: null, tutorial_dismissed: false, total_steps: 8, done_steps: 0 });
      expect(res.body.data.steps.map((s: { key: string }) => s.key)).toEqual(ONBOARDING_STEPS.map((s) => s.key));
      expect((await t.request('GET', `${P}/onboarding/suggestion`, { token: user.token })).body.data).toEqual({ step: 'welcome', title: 'Welcome aboard', reward_type: 'xp', reward_amount: 10 });
    });

    it('when completing a step, then it is done with its reward; a repeat answers already_completed', async () => {
      const user = await register();
      const first = await complete(user, 'welcome');
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ step: 'welcome', completed: true, rewards: { xp: 10 }, all_complete: false, next_step: 'first_follow' });
      expect((await complete(user, 'welcome')).body.data).toEqual({ already_completed: true, step: 'welcome' });
      expect((await t.request('GET', `${P}/onboarding/progress`, { token: user.token })).body.data).toMatchObject({ steps_completed: ['welcome'], current_step: 'first_follow', done_steps: 1 });
    });

    it('when completing an unknown step, then 200 with the error in the data; without a step, 400', async () => {
      const res = await complete(alice, 'fly');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: { error: 'Unknown step' } });
      expect((await complete(alice, undefined)).status).toBe(400);
    });

    it('given six steps done, when the last two complete concurrently, then the 50 spark bonus is paid exactly once', async () => {
      const user = await register();
      for (const step of ONBOARDING_STEPS.slice(0, 6)) await complete(user, step.key);
      const last = ONBOARDING_STEPS.slice(6).map((s) => s.key);
      const replies = await Promise.all([...last, ...last].map((step) => complete(user, step)));
      expect(replies.filter((r) => r.body.data.all_complete === true)).toHaveLength(1);
      expect(replies.filter((r) => r.body.data.completed === true)).toHaveLength(2);
      await settled(t);
      const rewards = await walletEvents(user);
      expect(rewards.filter((e) => e.data.source_type === 'onboarding_complete').map((e) => e.data.spark)).toEqual([50]);
      expect(rewards.filter((e) => e.data.source_type === 'onboarding_step')).toHaveLength(8);
      const progress = await t.request('GET', `${P}/onboarding/progress`, { token: user.token });
      expect(progress.body.data).toMatchObject({ current_step: null, done_steps: 8 });
      expect(progress.body.data.completed_at).toEqual(expect.any(String));
      expect(await t.request('GET', `${P}/onboarding/suggestion`, { token: user.token }).then((r) => r.body)).toEqual({ success: true });
    });

    it('given a user who posts, comments, votes and follows, then those steps complete by themselves, once each', async () => {
      const user = await register();
      const post = await t.request('POST', `${P}/posts`, { token: user.token, body: { title: 'Hello', content: 'Body' } });
      expect(post.status).toBe(201);
      expect((await t.request('POST', `${P}/posts/${post.body.data.id}/comments`, { token: user.token, body: { content: 'first' } })).status).toBe(201);
      expect((await t.request('POST', `${P}/posts/${post.body.data.id}/upvote`, { token: alice.token })).status).toBe(200);
      expect((await t.request('POST', `${P}/users/${alice.id}/follow`, { token: user.token })).status).toBeLessThan(300);
      await settled(t);
      const progress = (await t.request('GET', `${P}/onboarding/progress`, { token: user.token })).body.data;
      expect([...progress.steps_completed].sort()).toEqual(['first_comment', 'first_follow', 'first_post']);
      expect((await complete(user, 'first_post')).body.data).toEqual({ already_completed: true, step: 'first_post' });
      await eventually('alice to have first_vote', async () =>
        ((await t.request('GET', `${P}/onboarding/progress`, { token: alice.token })).body.data.steps_completed as string[]).includes('first_vote'),
      );
    });

    it('when dismissing, then true, and the progress says so and nothing is suggested', async () => {
      const user = await register();
      const res = await t.request('POST', `/social/onboarding/dismiss`, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body.data).toBe(true);
      expect((await t.request('GET', `${P}/onboarding/progress`, { token: user.token })).body.data.tutorial_dismissed).toBe(true);
      expect((await t.request('GET', `${P}/onboarding/suggestion`, { token: user.token })).body).toEqual({ success: true });
    });
  });
});
