import { applyAll, recorded } from '../../../test/support/projection-kit';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { notificationsOf } from '../social/notification-rules';
import { REFERRAL_CODES, REFERRALS, referralsProjection } from './referrals.projection';

const at = '2026-11-23T10:00:00.000Z';
const fields = { referral_id: 'r1', referrer_id: 'ann', referred_id: 'bob', referred_username: 'bob_b', referral_code: 'ABCD1234' };
const created = () => recorded('ReferralCodeCreated', { code: 'ABCD1234', user_id: 'ann', max_uses: 100, created_at: at });
const used = (uses: number) => recorded('ReferralCodeUsed', { code: 'ABCD1234', referrer_id: 'ann', referred_id: 'bob', uses, at });
const referred = () => recorded('ReferralCreated', { ...fields, referred_registered_at: at, created_at: at });
const activated = () => recorded('ReferralActivated', { ...fields, activated_at: '2026-11-26T10:00:00.000Z' });

describe('referral read models', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  it('given a code used, released and deactivated, then its document follows: uses and is_active', async () => {
    await applyAll(referralsProjection, store, created(), used(1));
    expect(await store.collection(REFERRAL_CODES).findOne({ _id: 'ABCD1234' })).toMatchObject({ user_id: 'ann', uses: 1, max_uses: 100, is_active: true });
    await applyAll(
      referralsProjection,
      store,
      recorded('ReferralCodeUseReleased', { code: 'ABCD1234', referrer_id: 'ann', referred_id: 'bob', uses: 0, at }),
      recorded('ReferralCodeDeactivated', { code: 'ABCD1234', user_id: 'ann', at }),
    );
    expect(await store.collection(REFERRAL_CODES).findOne({ _id: 'ABCD1234' })).toMatchObject({ uses: 0, is_active: false });
  });

  it('given a referral created then activated, then the record is pending, then activated with its time', async () => {
    await applyAll(referralsProjection, store, referred());
    expect(await store.collection(REFERRALS).findOne({ _id: 'r1' })).toMatchObject({ referrer_id: 'ann', referred_id: 'bob', status: 'pending', activated_at: null, referred_registered_at: at });
    await applyAll(referralsProjection, store, activated());
    expect(await store.collection(REFERRALS).findOne({ _id: 'r1' })).toMatchObject({ status: 'activated', activated_at: '2026-11-26T10:00:00.000Z' });
  });

  it('given a referral created and activated, then the referrer is told each time, naming the referred user', () => {
    expect([...notificationsOf(referred()), ...notificationsOf(activated())].map(({ user_id, type, source_user_id, message }) => ({ user_id, type, source_user_id, message }))).toEqual([
      { user_id: 'ann', type: 'referral_signup', source_user_id: 'bob', message: 'bob_b joined with your referral code' },
      { user_id: 'ann', type: 'referral_activated', source_user_id: 'bob', message: 'Your referral bob_b is now active' },
    ]);
  });
});
