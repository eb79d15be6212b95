/**
 * Ad money after a charge or a completion (social-routes §16):
 *
 * - AdImpressionRecorded → RecordRevenue: the charge's cost as a revenue entry
 *   of the `ad` stream (src/aggregates/compute/revenue-entry.ts), the one the
 *   revenue dashboard and the admin revenue analytics read. One spark is
 *   booked as one unit of revenue (100 cents); costs are whole centi-spark,
 *   so the cents are exact. The entry id is `ad-<impression id>`: a
 *   redelivered event records nothing more.
 * - AdImpressionRecorded with an operator → ShareAdRevenue: the operator's
 *   share accrues in their wallet, which pays whole spark (once per impression).
 * - AdUnitCompleted → ReleaseAdBudget: the unspent budget back to the
 *   advertiser; DELETE /ads/{id} already did it, the wallet ignores the repeat.
 *   This is the safety net for a process that stopped in between.
 */
import { Injectable } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import { toCenti } from '../aggregates/ads/ad-unit';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { ReleaseAdBudget, ShareAdRevenue } from '../modules/ads/ads.commands';
import { RecordRevenue } from '../modules/compute/compute.commands';
import { reactions } from './support/reactions';

/** Revenue cents per spark of ad spend. */
export const AD_REVENUE_CENTS_PER_SPARK = 100;

const contextOf = (event: Pick<RecordedEvent, 'metadata'>) => ({ actor: 'system:ad-revenue', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId });

@Injectable()
export class AdRevenueSaga implements ProcessManager {
  readonly name = 'ad-revenue';
  private readonly reactions = reactions({
    AdImpressionRecorded: (event) => {
      const d = event.data;
      const commands: ICommand[] = [
        new RecordRevenue({ entryId: `ad-${d.impression_id}`, stream: 'ad', amountCents: toCenti(d.cost_spark)! * (AD_REVENUE_CENTS_PER_SPARK / 100), occurredAt: d.created_at }, contextOf(event)),
      ];
      if (d.operator_id !== null && d.node_id !== null && d.operator_share_spark > 0) {
        commands.push(
          new ShareAdRevenue(
            { userId: d.operator_id, impressionId: d.impression_id, adId: d.ad_id, nodeId: d.node_id, shareMilli: Math.round(d.operator_share_spark * 1000) },
            contextOf(event),
          ),
        );
      }
      return commands;
    },
    AdUnitCompleted: (event) =>
      new ReleaseAdBudget({ userId: event.data.advertiser_id, holdId: event.data.ad_id, amount: event.data.refunded_spark }, contextOf(event)),
  });
  readonly eventTypes = this.reactions.eventTypes;

  react(event: RecordedEvent): ICommand[] {
    return this.reactions.react(event);
  }
}
