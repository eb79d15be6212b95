/** The commands of the ads context (social-routes §16). */
import type { ImpressionType } from '../../aggregates/ads/ad-unit';
import type { CommandInput } from '../../aggregates/shared/decider';
import type { WalletCommand } from '../../aggregates/contest/wallet';
import { DomainCommand } from '../common/domain-command';
import type { PresentedWitness } from './ad-witness';
import type { CreateAdRequest } from './ads.requests';
import type { AdUnitView, ImpressionView } from './ads.queries';

/** Holds the budget in the advertiser's wallet (400 `Insufficient Spark`), then creates the ad unit, active. */
export class CreateAd extends DomainCommand<{ advertiserId: string; ad: CreateAdRequest }, AdUnitView> {}

/**
 * Charges a view or a click of the user to the ad: 404 `Ad not found` (also
 * when not active), 429 for the rate limits, 429 `Ad budget exhausted`,
 * 409 `Witness nonce already used`.
 */
export class ChargeAdImpression extends DomainCommand<
  {
    adId: string;
    type: ImpressionType;
    userId: string;
    nodeId: string | null;
    regionId: string | null;
    placementId: string | null;
    witness: PresentedWitness | null;
  },
  ImpressionView
> {}

/** Completes the ad (its advertiser, or an admin) and refunds the unspent budget to the advertiser's wallet. */
export class CompleteAd extends DomainCommand<{ adId: string; by: string; asAdmin: boolean }, { deleted: true; spark_refunded: number }> {}

/** Gives the unspent part of an ad's budget hold back (idempotent: the saga's safety net after CompleteAd). */
export class ReleaseAdBudget extends DomainCommand<Omit<CommandInput<WalletCommand, 'release'>, never>, void> {}

/** Accrues a node operator's share of an ad charge in their wallet; whole spark are paid (idempotent per impression). */
export class ShareAdRevenue extends DomainCommand<CommandInput<WalletCommand, 'shareAdRevenue'>, void> {}
