import { recordedEvent } from '../../test/support/saga-kit';
import { ReleaseAdBudget, ShareAdRevenue } from '../modules/ads/ads.commands';
import { RecordRevenue } from '../modules/compute/compute.commands';
import { AdRevenueSaga } from './ad-revenue.saga';

const saga = new AdRevenueSaga();
const impression = (extra: Record<string, unknown> = {}) => ({
  impression_id: 'i1',
  ad_id: 'ad1',
  advertiser_id: 'ann',
  impression_type: 'view',
  user_id: 'bob',
  node_id: 'n1',
  cost_spark: 0.1,
  spent_spark: 0.1,
  operator_id: 'op',
  operator_share_spark: 0.09,
  created_at: '2026-12-01T10:00:00.000Z',
  ...extra,
});
const react = (type: string, data: Record<string, unknown>) => saga.react(recordedEvent(type, data, { eventId: 'e7', correlationId: 'c7' }));

describe('ad revenue saga', () => {
  it('given a charge served by an operated node, then its cost is booked as ad revenue (1 spark = 100 cents) and the operator’s share accrues, caused by it', () => {
    const [revenue, share] = react('AdImpressionRecorded', impression());
    expect(revenue).toBeInstanceOf(RecordRevenue);
    expect((revenue as RecordRevenue).payload).toEqual({ entryId: 'ad-i1', stream: 'ad', amountCents: 10, occurredAt: '2026-12-01T10:00:00.000Z' });
    expect(share).toBeInstanceOf(ShareAdRevenue);
    expect((share as ShareAdRevenue).payload).toEqual({ userId: 'op', impressionId: 'i1', adId: 'ad1', nodeId: 'n1', shareMilli: 90 });
    expect((share as ShareAdRevenue).context).toEqual({ actor: 'system:ad-revenue', correlationId: 'c7', causationId: 'e7' });
  });

  it('given a charge without an operator, then only the revenue', () =>
    expect(react('AdImpressionRecorded', impression({ operator_id: null, operator_share_spark: 0 })).map((c) => c.constructor)).toEqual([RecordRevenue]));

  it('given a completed ad, then its unspent budget is released to the advertiser', () => {
    const [release] = react('AdUnitCompleted', { ad_id: 'ad1', advertiser_id: 'ann', budget_spark: 50, spent_spark: 1.1, refunded_spark: 48.9 });
    expect((release as ReleaseAdBudget).payload).toEqual({ userId: 'ann', holdId: 'ad1', amount: 48.9 });
  });

  it('reacts to nothing else', () => expect(saga.eventTypes).toEqual(['AdImpressionRecorded', 'AdUnitCompleted']));
});
