/**
 * `revenue_daily`: revenue per UTC day of `occurred_at`, per stream, in
 * integer cents (`api_cents`, `ad_cents`, `hosting_payout_cents`). The
 * dashboard sums the days of the requested period.
 */
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';

export const REVENUE_DAILY = 'revenue_daily';

export interface RevenueDailyDoc extends Doc {
  /** YYYY-MM-DD (UTC), also the _id */
  day: string;
  api_cents?: number;
  ad_cents?: number;
  hosting_payout_cents?: number;
  entries?: number;
}

export const revenueProjection: ProjectionDefinition = {
  name: 'revenue',
  version: 1,
  eventTypes: ['RevenueRecorded'],
  collections: [REVENUE_DAILY],
  indexes: [{ collection: REVENUE_DAILY, spec: { keys: { day: 1 }, name: 'day' } }],
  apply(event: RecordedEvent, writer: ProjectionWriter): void {
    const data = event.data as { stream: string; amount_cents: number; occurred_at: string };
    const day = data.occurred_at.slice(0, 10);
    applyOnce(writer, REVENUE_DAILY, day, event, {
      $set: { day },
      $inc: { [`${data.stream}_cents`]: data.amount_cents, entries: 1 },
    });
  },
};
