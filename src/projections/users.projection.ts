/**
 * `users`: one document per account, for lookups by id, username, device and
 * recovery-code hash, and for profile reads. Secrets other than the
 * recovery-code HMAC (used for lookup) are not copied here.
 */
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../infrastructure/read-store/projection';
import type { Doc } from '../infrastructure/read-store/read-store.port';
import type { UserEvent } from '../aggregates/user/user.events';
import { applyOnce } from './support/apply-once';

export const USERS = 'users';

export interface UserDoc extends Doc {
  id: string;
  username: string;
  username_key: string;
  email: string | null;
  display_name: string;
  role: string;
  user_type: string;
  device_id: string | null;
  recovery_code_hash: string | null;
  created_at: string;
  last_active_at: string | null;
}

function update(event: RecordedEvent): Record<string, unknown> {
  const e = event as RecordedEvent & UserEvent;
  switch (e.type) {
    case 'UserRegistered':
      return {
        $set: {
          id: e.data.user_id,
          username: e.data.username,
          username_key: e.data.username.toLowerCase(),
          email: e.data.email,
          display_name: e.data.display_name,
          role: e.data.role,
          user_type: e.data.user_type,
          device_id: null,
          recovery_code_hash: null,
          created_at: e.data.registered_at,
          last_active_at: null,
        },
      };
    case 'GuestRegistered':
      return {
        $set: {
          id: e.data.user_id,
          username: e.data.username,
          username_key: e.data.username.toLowerCase(),
          email: null,
          display_name: e.data.display_name,
          role: 'guest',
          user_type: 'guest',
          device_id: e.data.device_id,
          recovery_code_hash: e.data.recovery_code_hash,
          created_at: e.data.registered_at,
          last_active_at: e.data.registered_at,
        },
      };
    case 'UserLoggedIn':
      return { $set: { last_active_at: e.data.at } };
    case 'GuestRecovered': {
      const set: Record<string, unknown> = { recovery_code_hash: e.data.recovery_code_hash, last_active_at: e.data.at };
      if (e.data.device_id) set.device_id = e.data.device_id;
      return { $set: set };
    }
    case 'UserRoleChanged':
      return { $set: { role: e.data.role } };
    default:
      return {};
  }
}

export const usersProjection: ProjectionDefinition = {
  name: 'users',
  version: 1,
  eventTypes: ['UserRegistered', 'GuestRegistered', 'UserLoggedIn', 'GuestRecovered', 'UserRoleChanged'],
  collections: [USERS],
  indexes: [
    { collection: USERS, spec: { keys: { username_key: 1 } } },
    { collection: USERS, spec: { keys: { device_id: 1 } } },
    { collection: USERS, spec: { keys: { recovery_code_hash: 1 } } },
  ],
  apply(event: RecordedEvent, writer: ProjectionWriter): void {
    const creates = event.type === 'UserRegistered' || event.type === 'GuestRegistered';
    applyOnce(writer, USERS, event.data.user_id as string, event, update(event), { upsert: creates });
  },
};
