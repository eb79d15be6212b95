/**
 * `revenue_daily`: revenue per UTC day of `occurred_at`, per stream, in
 * integer cents (`api_cents`, `ad_cents`, `hosting_payout_cents`). The
 * dashboard sums the days of the requested period. Metered /v1 calls
 * (`ApiUsageMetered`) add their amount to `api_cents` (0 on the free tier)
 * and count in `api_calls` and `api_tokens`.
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
  /** metered calls of the OpenAI-compatible API, and their tokens */
  api_calls?: number;
  api_tokens?: number;
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
    ApiUsageMetered: (event, writer) => {
      const data = event.data;
      const day = data.occurred_at.slice(0, 10);
      applyOnce(writer, REVENUE_DAILY, day, event, {
        $set: { day },
        $inc: { api_cents: data.amount_cents, api_calls: 1, api_tokens: data.prompt_tokens + data.completion_tokens },
      });
    },
  },
});
