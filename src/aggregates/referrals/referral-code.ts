/**
 * A referral code (social-routes §14), stream `referralCode-<CODE>`: who owns
 * it, how many uses it allows and who used it. The stream is keyed by the code
 * itself, so a code belongs to one user (opening it for another owner is a
 * conflict: pick another code) and the uses of a code serialize here, so
 * concurrent uses of a code with one use left make exactly one referral.
 *
 * A use is reserved here first, then the referral is recorded on the referred
 * user's stream (./referral.ts); when that refuses (already referred, raced
 * with another code) the use is released again.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export const CODE_LENGTH = 8;
export const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const CODE_PATTERN = /^[A-Z0-9]{8}$/;
export const DEFAULT_MAX_USES = 100;

/** Why a use is refused; the route answers each one with `{success: true}` and no data (§14). */
export type ReferralRefusal = 'unknown_code' | 'inactive_code' | 'used_up' | 'own_code' | 'already_referred';

/** The refusal of a referral, told apart from other DomainErrors by its `code`. */
export const REFERRAL_REFUSED = 'referral_refused';

export const referralRefusal = (reason: ReferralRefusal): DomainError =>
  new DomainError('invalid', `referral refused: ${reason.split('_').join(' ')}`, { code: REFERRAL_REFUSED, details: { reason } });

export const isReferralRefusal = (error: unknown): error is DomainError => error instanceof DomainError && error.options.code === REFERRAL_REFUSED;

export const REFERRAL_CODE_TAKEN = 'referral code taken';

export type ReferralCodeEvent =
  | { type: 'ReferralCodeCreated'; data: { code: string; user_id: string; max_uses: number; created_at: string } }
  | { type: 'ReferralCodeUsed'; data: { code: string; referrer_id: string; referred_id: string; uses: number; at: string } }
  | { type: 'ReferralCodeUseReleased'; data: { code: string; referrer_id: string; referred_id: string; uses: number; at: string } }
  | { type: 'ReferralCodeDeactivated'; data: { code: string; user_id: string; at: string } };

export type ReferralCodeState =
  | { status: 'none' }
  | { status: 'active' | 'inactive'; code: string; ownerId: string; maxUses: number; uses: number; referred: readonly string[] };

export type ReferralCodeCommand =
  | { kind: 'open'; code: string; ownerId: string }
  | { kind: 'use'; referredId: string }
  | { kind: 'release'; referredId: string }
  | { kind: 'deactivate' };

export const referralCodeStreamId = (code: string): string => `referralCode-${code}`;

type Opened = Exclude<ReferralCodeState, { status: 'none' }>;

function use(state: ReferralCodeState, referredId: string, now: Date): ReferralCodeEvent[] {
  if (state.status === 'none') throw referralRefusal('unknown_code');
  if (state.status === 'inactive') throw referralRefusal('inactive_code');
  if (state.ownerId === referredId) throw referralRefusal('own_code');
  if (state.referred.includes(referredId)) throw referralRefusal('already_referred');
  if (state.uses >= state.maxUses) throw referralRefusal('used_up');
  const data = { code: state.code, referrer_id: state.ownerId, referred_id: referredId, uses: state.uses + 1, at: now.toISOString() };
  return [{ type: 'ReferralCodeUsed', data }];
}

function release(state: ReferralCodeState, referredId: string, now: Date): ReferralCodeEvent[] {
  if (state.status === 'none' || !state.referred.includes(referredId)) return [];
  const data = { code: state.code, referrer_id: state.ownerId, referred_id: referredId, uses: state.uses - 1, at: now.toISOString() };
  return [{ type: 'ReferralCodeUseReleased', data }];
}

function opened(state: ReferralCodeState): Opened {
  if (state.status === 'none') throw new Error('a referral code event on a code that was never created');
  return state;
}

export const referralCodeDecider: Decider<ReferralCodeState, ReferralCodeCommand, ReferralCodeEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'ReferralCodeCreated':
        return { status: 'active', code: event.data.code, ownerId: event.data.user_id, maxUses: event.data.max_uses, uses: 0, referred: [] };
      case 'ReferralCodeUsed': {
        const s = opened(state);
        return { ...s, uses: event.data.uses, referred: [...s.referred, event.data.referred_id] };
      }
      case 'ReferralCodeUseReleased': {
        const s = opened(state);
        return { ...s, uses: event.data.uses, referred: s.referred.filter((id) => id !== event.data.referred_id) };
      }
      case 'ReferralCodeDeactivated':
        return { ...opened(state), status: 'inactive' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'open':
        if (state.status !== 'none') {
          if (state.ownerId === command.ownerId) return [];
          throw new DomainError('conflict', REFERRAL_CODE_TAKEN);
        }
        if (!CODE_PATTERN.test(command.code)) throw new DomainError('invalid', `a referral code is ${CODE_LENGTH} characters of A-Z and 0-9`);
        return [{ type: 'ReferralCodeCreated', data: { code: command.code, user_id: command.ownerId, max_uses: DEFAULT_MAX_USES, created_at: now.toISOString() } }];
      case 'use':
        return use(state, command.referredId, now);
      case 'release':
        return release(state, command.referredId, now);
      case 'deactivate':
        if (state.status !== 'active') return [];
        return [{ type: 'ReferralCodeDeactivated', data: { code: state.code, user_id: state.ownerId, at: now.toISOString() } }];
      default:
        return assertNever(command);
    }
  },
};
