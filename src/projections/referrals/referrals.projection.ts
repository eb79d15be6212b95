/**
 * The referral read models (social-routes §14):
 * - `referral_codes`: one document per code (`_id` the code): its owner, uses,
 *   max_uses and whether it is active; found by owner.
 * - `referrals`: one document per referral (`_id` the referral id), the
 *   Referral record, found by referrer (stats) and by status and the referred
 *   account's registration time (the activation sweep).
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const REFERRAL_CODES = 'referral_codes';
export const REFERRALS = 'referrals';

export interface ReferralCodeDoc extends Doc {
  user_id: string;
  uses: number;
  max_uses: number;
  is_active: boolean;
  created_at: string;
}

export interface ReferralDoc extends Doc {
  referrer_id: string;
  referred_id: string;
  referral_code: string;
  status: 'pending' | 'activated';
  created_at: string;
  activated_at: string | null;
  /** when the referred account was registered: the sweep finds the accounts turning 3 days old by it */
  referred_registered_at: string;
}

const codeUses = (event: { position: number; data: { code: string; uses: number } }, writer: Parameters<typeof applyOnce>[0]): void =>
  applyOnce(writer, REFERRAL_CODES, event.data.code, event, { $set: { uses: event.data.uses } }, { upsert: false });

export const referralsProjection = defineProjection({
  name: 'referrals',
  version: 1,
  collections: [REFERRAL_CODES, REFERRALS],
  indexes: [
    { collection: REFERRAL_CODES, spec: { keys: { user_id: 1 } } },
    { collection: REFERRALS, spec: { keys: { referrer_id: 1 } } },
    { collection: REFERRALS, spec: { keys: { status: 1, referred_registered_at: -1 } } },
  ],
  on: {
    ReferralCodeCreated: (event, writer) => {
      const { code, user_id, max_uses, created_at } = event.data;
      applyOnce(writer, REFERRAL_CODES, code, event, { $set: { user_id, uses: 0, max_uses, is_active: true, created_at } });
    },
    ReferralCodeUsed: codeUses,
    ReferralCodeUseReleased: codeUses,
    ReferralCodeDeactivated: (event, writer) => applyOnce(writer, REFERRAL_CODES, event.data.code, event, { $set: { is_active: false } }, { upsert: false }),
    ReferralCreated: (event, writer) => {
      const d = event.data;
      applyOnce(writer, REFERRALS, d.referral_id, event, {
        $set: {
          referrer_id: d.referrer_id,
          referred_id: d.referred_id,
          referral_code: d.referral_code,
          status: 'pending',
          created_at: d.created_at,
          activated_at: null,
          referred_registered_at: d.referred_registered_at,
        },
      });
    },
    ReferralActivated: (event, writer) =>
      applyOnce(writer, REFERRALS, event.data.referral_id, event, { $set: { status: 'activated', activated_at: event.data.activated_at } }, { upsert: false }),
  },
});
