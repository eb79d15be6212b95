/** The commands of the referrals context (social-routes §14). */
import type { CommandInput } from '../../aggregates/shared/decider';
import type { ReferralCommand } from '../../aggregates/referrals/referral';
import { DomainCommand } from '../common/domain-command';
import type { ReferralCodeView, ReferralView } from './referrals.queries';

/** The user's referral code: created on the first call (100 uses), the same one afterwards. */
export class IssueReferralCode extends DomainCommand<{ userId: string }, ReferralCodeView> {}

/**
 * Records that `referredId` was referred with `code`, and counts the use; null
 * (no referral, nothing written) for an unknown, inactive or used-up code,
 * one's own code, or a user who was already referred.
 */
export class UseReferralCode extends DomainCommand<{ referredId: string; code: string }, ReferralView | null> {}

/**
 * Activates the user's pending referral when the activation rule holds now;
 * nothing otherwise. `after`: the recorded event that asked for the check,
 * which the facts read must include (the saga runs apart from the projections).
 */
export class CheckReferralActivation extends DomainCommand<{ referredId: string; after?: { position: number; eventType: string } }, void> {}

export type ActivateReferral = CommandInput<ReferralCommand, 'activate'>;
