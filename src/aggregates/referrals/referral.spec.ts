import { deciderKit } from '../../../test/support/decider-kit';
import { activationDue, referralDecider, type ReferralCommand, type ReferredAccountFacts } from './referral';

const t0 = new Date('2026-11-23T10:00:00.000Z');
const days = (n: number) => new Date(t0.getTime() + n * 24 * 3600_000);
const { given, history } = deciderKit(referralDecider, t0);
const create = (referredId = 'bob', referrerId = 'ann'): ReferralCommand => ({
  kind: 'create',
  referralId: 'r1',
  referrerId,
  referredId,
  referredUsername: 'bob_b',
  referredRegisteredAt: t0.toISOString(),
  code: 'ABCD1234',
});
const active: ReferredAccountFacts = { registeredAt: t0.toISOString(), postCount: 1, commentCount: 0, karma: 5 };
const activate = (facts: Partial<ReferredAccountFacts> = {}): ReferralCommand => ({ kind: 'activate', facts: { ...active, ...facts } });
const pending = history(create());
const fields = { referral_id: 'r1', referrer_id: 'ann', referred_id: 'bob', referred_username: 'bob_b', referral_code: 'ABCD1234' };

describe('referral', () => {
  it('given no referral, when created, then it is pending', () =>
    given()
      .when(create())
      .then({ type: 'ReferralCreated', data: { ...fields, referred_registered_at: t0.toISOString(), created_at: t0.toISOString() } }));

  it('given a referral, when the user is referred again, then it is refused as already referred', () =>
    expect(() => given(...pending).when(create('bob', 'cat')).events()).toThrow(expect.objectContaining({ options: expect.objectContaining({ details: { reason: 'already_referred' } }) })));

  it('given a referral of oneself, then it is refused', () =>
    expect(() => given().when(create('ann', 'ann')).events()).toThrow(expect.objectContaining({ options: expect.objectContaining({ details: { reason: 'own_code' } }) })));

  it('given a pending referral and an account 3 days old with a post and karma 5, when checked, then it is activated', () =>
    given(...pending)
      .when(activate(), days(3))
      .then({ type: 'ReferralActivated', data: { ...fields, activated_at: days(3).toISOString() } }));

  it('given an activated referral, when checked again (a redelivery), then nothing more', () => {
    const activated = given(...pending).when(activate(), days(3)).events();
    given(...pending, ...activated).when(activate(), days(4)).thenNothing();
  });

  it('given no referral, when checked, then nothing', () => given().when(activate(), days(3)).thenNothing());

  it.each([
    ['younger than 3 days', days(3 - 1 / 24), {}],
    ['no post and 2 comments', days(3), { postCount: 0, commentCount: 2 }],
    ['karma 4', days(3), { karma: 4 }],
  ])('given an account %s, when checked, then it stays pending', (_name, now, facts) => given(...pending).when(activate(facts), now).thenNothing());

  it('the rule: 3 comments stand for a post', () => expect(activationDue({ ...active, postCount: 0, commentCount: 3 }, days(3))).toBe(true));
});
