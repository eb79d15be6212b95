/**
 * `account_stats`: platform-wide counters (one document). Counters use $inc,
 * so this read model is the one that would show a double-applied event;
 * applyOnce's position guard keeps it exact across replays and crashes.
 */
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';

export const ACCOUNT_STATS = 'account_stats';
export const ACCOUNT_STATS_ID = 'accounts';

export interface AccountStatsDoc extends Doc {
  total_users?: number;
  total_humans?: number;
  total_agents?: number;
  total_guests?: number;
  logins?: number;
  failed_logins?: number;
  api_keys_issued?: number;
}

const COUNTERS: Record<string, Record<string, number>> = {
  UserRegistered: { total_users: 1, total_humans: 1 },
  GuestRegistered: { total_users: 1, total_guests: 1 },
  UserLoggedIn: { logins: 1 },
  UserLoginFailed: { failed_logins: 1 },
  ApiKeyIssued: { api_keys_issued: 1 },
};

export const accountStatsProjection: ProjectionDefinition = {
  name: 'accountStats',
  version: 1,
  eventTypes: Object.keys(COUNTERS),
  collections: [ACCOUNT_STATS],
  apply(event: RecordedEvent, writer: ProjectionWriter): void {
    const increments = { ...COUNTERS[event.type] };
    if (event.type === 'UserRegistered' && event.data.user_type === 'agent') {
      increments.total_humans = 0;
      increments.total_agents = 1;
    }
    applyOnce(writer, ACCOUNT_STATS, ACCOUNT_STATS_ID, event, { $inc: increments });
  },
};
