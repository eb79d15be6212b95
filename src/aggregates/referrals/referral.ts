/**
 * The referral of one user (social-routes §14), stream `referral-<referred user
 * id>`: a user is referred at most once, so the stream is keyed by the
 * referred user and a second referral, by any code, is refused here.
 *
 * pending → activated, once, when the referred account is at least 3 days
 * old, has at least 1 post or 3 comments, and karma of at least 5. The
 * activation saga hands over those facts as it reads them; the rule and the
 * once-only are decided here, so a redelivered check activates nothing more.
 */
import { assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import { referralRefusal } from './referral-code';

export const ACTIVATION_MIN_AGE_MS = 3 * 24 * 3600_000;
export const ACTIVATION_MIN_POSTS = 1;
export const ACTIVATION_MIN_COMMENTS = 3;
export const ACTIVATION_MIN_KARMA = 5;

/** What the activation rule reads about the referred account. */
export interface ReferredAccountFacts {
  registeredAt: string;
  postCount: number;
  commentCount: number;
  karma: number;
}

/** The activation rule (§14). */
export function activationDue(facts: ReferredAccountFacts, now: Date): boolean {
  const age = now.getTime() - Date.parse(facts.registeredAt);
  const active = facts.postCount >= ACTIVATION_MIN_POSTS || facts.commentCount >= ACTIVATION_MIN_COMMENTS;
  return age >= ACTIVATION_MIN_AGE_MS && active && facts.karma >= ACTIVATION_MIN_KARMA;
}

interface ReferralFields {
  referral_id: string;
  referrer_id: string;
  referred_id: string;
  /** the referred user's name, for the referrer's notifications */
  referred_username: string;
  referral_code: string;
}

export type ReferralEvent =
  | { type: 'ReferralCreated'; data: ReferralFields & { referred_registered_at: string; created_at: string } }
  | { type: 'ReferralActivated'; data: ReferralFields & { activated_at: string } };

interface Recorded {
  id: string;
  referrerId: string;
  referredId: string;
  referredUsername: string;
  code: string;
  createdAt: string;
}

export type ReferralState = { status: 'none' } | ({ status: 'pending' } & Recorded) | ({ status: 'activated'; activatedAt: string } & Recorded);

export type ReferralCommand =
  | { kind: 'create'; referralId: string; referrerId: string; referredId: string; referredUsername: string; referredRegisteredAt: string; code: string }
  | { kind: 'activate'; facts: ReferredAccountFacts };

export const referralStreamId = (referredId: string): string => `referral-${referredId}`;

const fieldsOf = (s: Recorded): ReferralFields => ({
  referral_id: s.id,
  referrer_id: s.referrerId,
  referred_id: s.referredId,
  referred_username: s.referredUsername,
  referral_code: s.code,
});

export const referralDecider: Decider<ReferralState, ReferralCommand, ReferralEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'ReferralCreated': {
        const d = event.data;
        return {
          status: 'pending',
          id: d.referral_id,
          referrerId: d.referrer_id,
          referredId: d.referred_id,
          referredUsername: d.referred_username,
          code: d.referral_code,
          createdAt: d.created_at,
        };
      }
      case 'ReferralActivated':
        if (state.status === 'none') return state;
        return { ...state, status: 'activated', activatedAt: event.data.activated_at };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'create': {
        if (state.status !== 'none') throw referralRefusal('already_referred');
        if (command.referrerId === command.referredId) throw referralRefusal('own_code');
        const data = {
          referral_id: command.referralId,
          referrer_id: command.referrerId,
          referred_id: command.referredId,
          referred_username: command.referredUsername,
          referral_code: command.code,
          referred_registered_at: command.referredRegisteredAt,
          created_at: now.toISOString(),
        };
        return [{ type: 'ReferralCreated', data }];
      }
      case 'activate':
        if (state.status !== 'pending' || !activationDue(command.facts, now)) return [];
        return [{ type: 'ReferralActivated', data: { ...fieldsOf(state), activated_at: now.toISOString() } }];
      default:
        return assertNever(command);
    }
  },
};
