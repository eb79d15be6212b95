/**
 * `account_stats`: platform-wide counters (one document). Counters use $inc,
 * so this read model is the one that would show a double-applied event;
 * applyOnce's position guard keeps it exact across replays and crashes.
 */
import type { DomainEventType } from '../../aggregates/events';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type ProjectionHandler, type ProjectionHandlers, type RecordedOf } from '../support/define-projection';

export const ACCOUNT_STATS = 'account_stats';
export const ACCOUNT_STATS_ID = 'accounts';

export interface AccountCounters {
  total_users?: number;
  total_humans?: number;
  total_agents?: number;
  total_guests?: number;
  logins?: number;
  failed_logins?: number;
  api_keys_issued?: number;
}

export interface AccountStatsDoc extends Doc, AccountCounters {}

/** The handler that adds an event's increments (fixed, or computed from the event) to the counters. */
function counts<T extends DomainEventType>(increments: AccountCounters | ((event: RecordedOf<T>) => AccountCounters)): ProjectionHandler<T> {
  return (event, writer) =>
    applyOnce(writer, ACCOUNT_STATS, ACCOUNT_STATS_ID, event, { $inc: typeof increments === 'function' ? increments(event) : increments });
}

/** What each event adds to the counters: one row per event type counted. */
const COUNTERS = {
  UserRegistered: counts((event) =>
    event.data.user_type === 'agent' ? { total_users: 1, total_humans: 0, total_agents: 1 } : { total_users: 1, total_humans: 1 },
  ),
  GuestRegistered: counts({ total_users: 1, total_guests: 1 }),
  UserLoggedIn: counts({ logins: 1 }),
  UserLoginFailed: counts({ failed_logins: 1 }),
  ApiKeyIssued: counts({ api_keys_issued: 1 }),
} satisfies ProjectionHandlers;

export const accountStatsProjection = defineProjection({
  name: 'accountStats',
  version: 1,
  collections: [ACCOUNT_STATS],
  on: COUNTERS,
});
