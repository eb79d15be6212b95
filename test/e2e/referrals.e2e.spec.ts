/**
 * Referrals over HTTP (social-routes §14): the caller's code (one, even under
 * concurrent first calls), using a code and every way a use is refused, a
 * code with one use left used concurrently, the referrer's notification and
 * stats, share links, registering with a code, and activation once the
 * referred account is 3 days old, active and has karma 5 (on the app's
 * injected clock; the sweep is run by hand). One app for the file.
 */
import { referralCodeDecider, referralCodeStreamId, type ReferralCodeCommand } from '../../src/aggregates/referrals/referral-code';
import { Clock } from '../../src/infrastructure/clock';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { CommandExecutor } from '../../src/modules/common/command-executor';
import { ReferralActivationSweeper } from '../../src/sagas/referral-activation.sweeper';
import { settled, signUp, startTestApp, type TestApp } from '../support/app';

jest.setTimeout(120_000);

const P = '/api/social';
const DAY_MS = 24 * 3600_000;

interface User {
  id: string;
  username: string;
  token: string;
}

describe('referrals over HTTP', () => {
  let t: TestApp;
  let offsetMs = 0;

  beforeAll(async () => {
    t = await startTestApp({ SHARE_BASE_URL: 'https://share.example.org/' });
    jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(Date.now() + offsetMs));
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    offsetMs = 0;
  });

  const register = (extra: Record<string, unknown> = {}): Promise<User> => signUp(t, { prefix: 'ref', extra });
  const codeOf = async (user: User): Promise<string> => {
    const res = await t.request('GET', `${P}/referral/code`, { token: user.token });
    expect(res.status).toBe(200);
    return res.body.data.code as string;
  };
  const use = (user: User, code: unknown) => t.request('POST', `${P}/referral/use`, { token: user.token, body: { code } });
  const stats = async (user: User) => (await t.request('GET', `${P}/referral/stats`, { token: user.token })).body.data;
  const notifications = async (user: User) => (await t.request('GET', `${P}/notifications`, { token: user.token })).body.data as Array<{ type: string; source_user_id: string }>;
  /** The code's decider run directly: the uses and deactivation no route makes. */
  const onCode = (code: string, command: ReferralCodeCommand) =>
    t.app.get(CommandExecutor).execute(referralCodeDecider, referralCodeStreamId(code), command, { actor: 'test', correlationId: 'test' });

  describe('GET /referral/code', () => {
    it('given a user without a code, when asked twice, then the same 8-character code with 100 uses, also on the user', async () => {
      const ann = await register();
      const first = await t.request('GET', `${P}/referral/code`, { token: ann.token });
      expect(first.body).toEqual({ success: true, data: { user_id: ann.id, code: expect.stringMatching(/^[A-Z0-9]{8}$/), uses: 0, max_uses: 100, is_active: true } });
      expect(await codeOf(ann)).toBe(first.body.data.code);
      const me = await t.request('GET', `${P}/auth/me`, { token: ann.token });
      expect(me.body.data.referral_code).toBe(first.body.data.code);
    });

    it('given concurrent first calls, then one code is created', async () => {
      const ann = await register();
      const codes = await Promise.all(Array.from({ length: 8 }, () => codeOf(ann)));
      expect(new Set(codes).size).toBe(1);
      const created = await t.app.get<EventStore>(EVENT_STORE).readStream(referralCodeStreamId(codes[0]));
      expect(created.filter((e) => e.type === 'ReferralCodeCreated')).toHaveLength(1);
    });

    it('given two users, then their codes differ', async () => {
      const [ann, bob] = await Promise.all([register(), register()]);
      expect(await codeOf(ann)).not.toBe(await codeOf(bob));
    });

    it('given no token, then 401', async () => expect((await t.request('GET', `${P}/referral/code`)).status).toBe(401));
  });

  describe('POST /referral/use', () => {
    it("given another user's code, when used, then a pending referral, the code's uses go up, the referrer is told and counts it", async () => {
      const [ann, bob] = await Promise.all([register(), register()]);
      const code = await codeOf(ann);
      const res = await use(bob, code.toLowerCase());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: { id: expect.any(String), referrer_id: ann.id, referred_id: bob.id, referral_code: code, status: 'pending', created_at: expect.any(String), activated_at: null },
      });
      expect((await t.request('GET', `${P}/referral/code`, { token: ann.token })).body.data.uses).toBe(1);
      expect(await stats(ann)).toEqual({ code, total_referrals: 1, activated: 0, pending: 1 });
      await settled(t);
      expect(await notifications(ann)).toEqual([expect.objectContaining({ type: 'referral_signup', source_user_id: bob.id })]);
    });

    const noData = { success: true };

    it('given an unknown code, then success without data', async () => {
      const bob = await register();
      expect((await use(bob, 'ZZZZZZZZ')).body).toEqual(noData);
      expect((await use(bob, 'not a code at all')).body).toEqual(noData);
    });

    it("given one's own code, then success without data and no use", async () => {
      const ann = await register();
      const code = await codeOf(ann);
      expect((await use(ann, code)).body).toEqual(noData);
      expect(await stats(ann)).toEqual({ code, total_referrals: 0, activated: 0, pending: 0 });
    });

    it('given a user already referred, when referred again (same or another code), then success without data, and no use counted', async () => {
      const [ann, cat, bob] = await Promise.all([register(), register(), register()]);
      const [annCode, catCode] = [await codeOf(ann), await codeOf(cat)];
      expect((await use(bob, annCode)).body.data).toBeDefined();
      expect((await use(bob, annCode)).body).toEqual(noData);
      expect((await use(bob, catCode)).body).toEqual(noData);
      expect(await stats(cat)).toMatchObject({ total_referrals: 0 });
      expect((await t.request('GET', `${P}/referral/code`, { token: cat.token })).body.data.uses).toBe(0);
    });

    it('given concurrent uses of two codes by one user, then one referral and one use in all', async () => {
      const [ann, cat, bob] = await Promise.all([register(), register(), register()]);
      const codes = [await codeOf(ann), await codeOf(cat)];
      const replies = await Promise.all([...codes, ...codes].map((code) => use(bob, code)));
      expect(replies.filter((r) => r.body.data)).toHaveLength(1);
      const uses = await Promise.all([ann, cat].map(async (u) => (await t.request('GET', `${P}/referral/code`, { token: u.token })).body.data.uses));
      expect(uses[0] + uses[1]).toBe(1);
    });

    it('given an inactive code, then success without data', async () => {
      const [ann, bob] = await Promise.all([register(), register()]);
      const code = await codeOf(ann);
      await onCode(code, { kind: 'deactivate' });
      expect((await use(bob, code)).body).toEqual(noData);
    });

    it('given a used-up code, then success without data', async () => {
      const [ann, bob] = await Promise.all([register(), register()]);
      const code = await codeOf(ann);
      await Promise.all(Array.from({ length: 100 }, (_, i) => onCode(code, { kind: 'use', referredId: `seed-${i}` })));
      expect((await use(bob, code)).body).toEqual(noData);
    });

    it('given a code with one use left, when 5 users use it at once, then exactly one wins', async () => {
      const ann = await register();
      const code = await codeOf(ann);
      await Promise.all(Array.from({ length: 99 }, (_, i) => onCode(code, { kind: 'use', referredId: `seed-${i}` })));
      const others = await Promise.all(Array.from({ length: 5 }, () => register()));
      const replies = await Promise.all(others.map((u) => use(u, code)));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(replies.filter((r) => r.body.data)).toHaveLength(1);
      expect((await t.request('GET', `${P}/referral/code`, { token: ann.token })).body.data).toMatchObject({ uses: 100, max_uses: 100 });
    });

    it.each([[{}], [{ code: '' }], [{ code: 42 }]])('given body %j, then 400 code is required', async (body) => {
      const bob = await register();
      const res = await t.request('POST', `${P}/referral/use`, { token: bob.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('code is required');
    });
  });

  describe('GET /referral/stats', () => {
    it('given a user who never asked for a code, then no code and zeros', async () => {
      const ann = await register();
      expect(await stats(ann)).toEqual({ code: null, total_referrals: 0, activated: 0, pending: 0 });
    });
  });

  describe('POST /share/generate-link', () => {
    it("given no base_url, then the configured site, the target and the caller's code", async () => {
      const ann = await register();
      const res = await t.request('POST', `${P}/share/generate-link`, { token: ann.token, body: { target_type: 'post', target_id: 'p-1' } });
      expect(res.status).toBe(200);
      const code = await codeOf(ann);
      expect(res.body.data).toEqual({ link: `https://share.example.org/post/p-1?ref=${code}`, referral_code: code });
    });

    it('given a base_url, then the link starts with it', async () => {
      const ann = await register();
      const res = await t.request('POST', `/social/share/generate-link`, { token: ann.token, body: { target_type: 'community', target_id: 'c9', base_url: 'http://my.site/x/' } });
      expect(res.body.data.link).toBe(`http://my.site/x/community/c9?ref=${res.body.data.referral_code}`);
    });

    it.each([
      [{ target_id: 'p1' }],
      [{ target_type: 'Post!', target_id: 'p1' }],
      [{ target_type: 'post', target_id: 'a/b' }],
      [{ target_type: 'post', target_id: 'p1', base_url: 'javascript:alert(1)' }],
      [{ target_type: 'post', target_id: 'p1', base_url: 42 }],
    ])('given %j, then 400', async (body) => {
      const ann = await register();
      expect((await t.request('POST', `${P}/share/generate-link`, { token: ann.token, body })).status).toBe(400);
    });
  });

  describe('registering with a referral code', () => {
    it('given a valid code, then the new user is referred, as /referral/use would', async () => {
      const ann = await register();
      const code = await codeOf(ann);
      const bob = await register({ referral_code: code });
      expect(await stats(ann)).toMatchObject({ total_referrals: 1, pending: 1 });
      expect((await use(bob, code)).body).toEqual({ success: true });
    });

    it('given a valid code at guest registration, then the guest is referred', async () => {
      const ann = await register();
      const res = await t.request('POST', `${P}/auth/guest-register`, { body: { guest_name: 'Guest', referral_code: await codeOf(ann) } });
      expect(res.status).toBe(201);
      expect(await stats(ann)).toMatchObject({ total_referrals: 1, pending: 1 });
      await settled(t);
      expect(await notifications(ann)).toEqual([expect.objectContaining({ type: 'referral_signup', source_user_id: res.body.data.user.id })]);
    });

    it.each([['ZZZZZZZZ'], ['???'], [42], [null]])('given the code %j, then the registration succeeds all the same', async (code) => {
      await register({ referral_code: code });
    });
  });

  describe('activation', () => {
    it('given a referred user 3 days old with a post and karma 5, then the referral is activated once and the referrer told', async () => {
      const [ann, bob] = await Promise.all([register(), register()]);
      expect((await use(bob, await codeOf(ann))).body.data.status).toBe('pending');
      const post = await t.request('POST', `${P}/posts`, { token: bob.token, body: { title: 'Hello', content: 'World' } });
      expect(post.status).toBe(201);
      const voters = await Promise.all(Array.from({ length: 5 }, () => register()));
      for (const voter of voters) expect((await t.request('POST', `${P}/posts/${post.body.data.id}/upvote`, { token: voter.token })).status).toBe(200);
      await settled(t);
      expect(await stats(ann)).toMatchObject({ activated: 0, pending: 1 });

      offsetMs = 3 * DAY_MS;
      await t.app.get(ReferralActivationSweeper).sweep();
      await t.app.get(ReferralActivationSweeper).sweep();
      await settled(t);
      expect(await stats(ann)).toMatchObject({ total_referrals: 1, activated: 1, pending: 0 });
      expect((await notifications(ann)).filter((n) => n.type === 'referral_activated')).toEqual([expect.objectContaining({ source_user_id: bob.id })]);
      const stream = await t.app.get<EventStore>(EVENT_STORE).readStream(`referral-${bob.id}`);
      expect(stream.filter((e) => e.type === 'ReferralActivated')).toHaveLength(1);
    });

    it('given a referred user 3 days old without a post, then it stays pending', async () => {
      const [ann, bob] = await Promise.all([register(), register()]);
      await use(bob, await codeOf(ann));
      offsetMs = 3 * DAY_MS;
      await t.app.get(ReferralActivationSweeper).sweep();
      await settled(t);
      expect(await stats(ann)).toMatchObject({ activated: 0, pending: 1 });
    });

    it('given a referred account already 3 days old, when its post gets its fifth upvote, then the saga activates the referral without a sweep', async () => {
      const [ann, bob] = await Promise.all([register(), register()]);
      await use(bob, await codeOf(ann));
      const post = await t.request('POST', `${P}/posts`, { token: bob.token, body: { title: 'Later', content: 'Post' } });
      const voters = await Promise.all(Array.from({ length: 5 }, () => register()));
      // moved only now: a rate-limit bucket used while the clock is ahead refuses once it goes back (afterEach)
      offsetMs = 3 * DAY_MS;
      for (const voter of voters) await t.request('POST', `${P}/posts/${post.body.data.id}/upvote`, { token: voter.token });
      await settled(t);
      expect(await stats(ann)).toMatchObject({ activated: 1, pending: 0 });
    });
  });
});
