import { deciderKit } from '../../../test/support/decider-kit';
import { DEFAULT_MAX_USES, REFERRAL_CODE_TAKEN, referralCodeDecider, type ReferralCodeCommand, type ReferralCodeEvent } from './referral-code';

const t0 = new Date('2026-11-23T10:00:00.000Z');
const { given, history } = deciderKit(referralCodeDecider, t0);
const open = (ownerId = 'ann', code = 'ABCD1234'): ReferralCodeCommand => ({ kind: 'open', code, ownerId });
const use = (referredId: string): ReferralCodeCommand => ({ kind: 'use', referredId });
const opened = history(open());
const usedBy = (...ids: string[]): ReferralCodeEvent[] => history(open(), ...ids.map(use));

describe('referral code', () => {
  it('given no code, when its owner opens it, then it allows 100 uses', () =>
    given()
      .when(open())
      .then({ type: 'ReferralCodeCreated', data: { code: 'ABCD1234', user_id: 'ann', max_uses: DEFAULT_MAX_USES, created_at: t0.toISOString() } }));

  it('given the code of ann, when ann opens it again, then nothing happens', () => given(...opened).when(open()).thenNothing());

  it('given the code of ann, when bob opens the same code, then it is taken (a conflict)', () =>
    given(...opened).when(open('bob')).thenRefused('conflict', REFERRAL_CODE_TAKEN));

  it('given a code that is not 8 of A-Z 0-9, then it is not opened', () => given().when(open('ann', 'abc')).thenRefused('invalid'));

  it('given an open code, when bob uses it, then the uses go up by 1', () =>
    given(...opened)
      .when(use('bob'))
      .then({ type: 'ReferralCodeUsed', data: { code: 'ABCD1234', referrer_id: 'ann', referred_id: 'bob', uses: 1, at: t0.toISOString() } }));

  it.each([
    ['an unknown code', [] as ReferralCodeEvent[], 'bob', 'unknown_code'],
    ['an inactive code', [...opened, { type: 'ReferralCodeDeactivated', data: { code: 'ABCD1234', user_id: 'ann', at: t0.toISOString() } }] as ReferralCodeEvent[], 'bob', 'inactive_code'],
    ["one's own code", opened, 'ann', 'own_code'],
    ['a user who used it before', usedBy('bob'), 'bob', 'already_referred'],
  ])('given %s, when used, then the use is refused as a referral refusal', (_name, past, referredId, reason) => {
    const refused = () => given(...past).when(use(referredId)).events();
    expect(refused).toThrow(expect.objectContaining({ kind: 'invalid', options: expect.objectContaining({ code: 'referral_refused', details: { reason } }) }));
  });

  it('given a code with its 100 uses spent, when used once more, then it is refused as used up', () => {
    const spent = usedBy(...Array.from({ length: DEFAULT_MAX_USES }, (_, i) => `u${i}`));
    expect(given(...spent).state()).toMatchObject({ uses: 100 });
    expect(() => given(...spent).when(use('late')).events()).toThrow(expect.objectContaining({ options: expect.objectContaining({ details: { reason: 'used_up' } }) }));
  });

  it('given a use by bob, when it is released, then the uses go down and bob may use it again', () => {
    const released = given(...usedBy('bob')).when({ kind: 'release', referredId: 'bob' });
    expect(released.events()[0]).toMatchObject({ type: 'ReferralCodeUseReleased', data: { uses: 0, referred_id: 'bob' } });
    expect(given(...usedBy('bob'), ...released.events()).when(use('bob')).state()).toMatchObject({ uses: 1, referred: ['bob'] });
  });

  it('given no use by bob, when released, then nothing happens', () => given(...opened).when({ kind: 'release', referredId: 'bob' }).thenNothing());

  it('given an active code, when deactivated, then it is inactive; again: nothing', () => {
    const off = given(...opened).when({ kind: 'deactivate' }).events();
    expect(off).toEqual([{ type: 'ReferralCodeDeactivated', data: { code: 'ABCD1234', user_id: 'ann', at: t0.toISOString() } }]);
    given(...opened, ...off).when({ kind: 'deactivate' }).thenNothing();
  });
});
