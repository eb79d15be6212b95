/**
 * `users`: one document per account, for lookups by id, username, device and
 * recovery-code hash, and for profile reads. Secrets other than the
 * recovery-code HMAC (used for lookup) are not copied here.
 */
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type RecordedOf } from '../support/define-projection';

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

type UserCreated = RecordedOf<'UserRegistered' | 'GuestRegistered'>;

function created(event: UserCreated, writer: ProjectionWriter): void {
  const d = event.data;
  const guest = event.type === 'GuestRegistered';
  applyOnce(writer, USERS, d.user_id, event, {
    $set: {
      id: d.user_id,
      username: d.username,
      username_key: d.username.toLowerCase(),
      email: event.type === 'UserRegistered' ? event.data.email : null,
      display_name: d.display_name,
      role: event.type === 'UserRegistered' ? event.data.role : 'guest',
      user_type: event.type === 'UserRegistered' ? event.data.user_type : 'guest',
      device_id: event.type === 'GuestRegistered' ? event.data.device_id : null,
      recovery_code_hash: event.type === 'GuestRegistered' ? event.data.recovery_code_hash : null,
      created_at: d.registered_at,
      last_active_at: guest ? d.registered_at : null,
    },
  });
}

/** Later changes never create a document: an account exists before anything happens to it (log order). */
const change = (event: { position: number }, writer: ProjectionWriter, userId: string, set: Record<string, unknown>): void =>
  applyOnce(writer, USERS, userId, event, { $set: set }, { upsert: false });

export const usersProjection = defineProjection({
  name: 'users',
  version: 1,
  collections: [USERS],
  indexes: [
    { collection: USERS, spec: { keys: { username_key: 1 } } },
    { collection: USERS, spec: { keys: { device_id: 1 } } },
    { collection: USERS, spec: { keys: { recovery_code_hash: 1 } } },
  ],
  on: {
    UserRegistered: created,
    GuestRegistered: created,
    UserLoggedIn: (event, writer) => change(event, writer, event.data.user_id, { last_active_at: event.data.at }),
    GuestRecovered: (event, writer) => {
      const set: Record<string, unknown> = { recovery_code_hash: event.data.recovery_code_hash, last_active_at: event.data.at };
      if (event.data.device_id) set.device_id = event.data.device_id;
      change(event, writer, event.data.user_id, set);
    },
    UserRoleChanged: (event, writer) => change(event, writer, event.data.user_id, { role: event.data.role }),
  },
});
