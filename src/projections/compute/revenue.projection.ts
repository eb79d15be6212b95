/**
 * `revenue_daily`: revenue per UTC day of `occurred_at`, per stream, in
 * integer cents (`api_cents`, `ad_cents`, `hosting_payout_cents`). The
 * dashboard sums the days of the requested period.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const REVENUE_DAILY = 'revenue_daily';

export interface RevenueDailyDoc extends Doc {
  /** YYYY-MM-DD (UTC), also the _id */
  day: string;
  api_cents?: number;
  ad_cents?: number;
  hosting_payout_cents?: number;
  entries?: number;
}

export const revenueProjection = defineProjection({
  name: 'revenue',
  version: 1,
  collections: [REVENUE_DAILY],
  indexes: [{ collection: REVENUE_DAILY, spec: { keys: { day: 1 }, name: 'day' } }],
  on: {
    RevenueRecorded: (event, writer) => {
      const data = event.data;
      const day = data.occurred_at.slice(0, 10);
      applyOnce(writer, REVENUE_DAILY, day, event, {
        $set: { day },
        $inc: { [`${data.stream}_cents`]: data.amount_cents, entries: 1 },
      });
    },
  },
});
