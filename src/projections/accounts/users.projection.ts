/**
 * `users`: one document per account, for lookups by id, username, device and
 * recovery-code hash, and the social User record (social-routes §0.5) every
 * social route shows: profile, counters, karma, flags. Secrets other than the
 * recovery-code HMAC (used for lookup) are not copied here.
 *
 * One read model, fed by several contexts: the account events here, and each
 * social context's events through its own handler map
 * (`src/projections/social/users.<context>.handlers.ts`), spread into `on`
 * below. Each map handles only its own context's event types, so the maps
 * never overlap; one projection keeps one checkpoint and `applyOnce`'s
 * per-document position guard exact.
 */
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { AGENTS_USER_HANDLERS } from '../social/users.agents.handlers';
import { applyOnce } from '../support/apply-once';
import { USERS_CONTENT_HANDLERS } from '../social/users.content.handlers';
import { USERS_PROXIMITY_HANDLERS } from '../social/users.proximity.handlers';
import { USERS_REFERRALS_HANDLERS } from '../social/users.referrals.handlers';
import { USERS_RESONANCE_HANDLERS } from '../social/users.resonance.handlers';
import { updateUser, USERS } from './update-user';
import { USERS_SOCIAL_HANDLERS } from '../social/users.social.handlers';
import { defineProjection, type ProjectionHandlers, type RecordedOf } from '../support/define-projection';

export { USERS };

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
  // the social profile (§0.5); defaults set at registration
  bio: string;
  avatar_url: string | null;
  handle: string | null;
  local_name: string | null;
  agent_id: string | null;
  /** the human who owns an agent account */
  owner_id: string | null;
  is_verified: boolean;
  is_banned: boolean;
  post_count: number;
  comment_count: number;
  /** Σ score of the user's live posts */
  post_karma: number;
  /** Σ score of the user's live comments */
  comment_karma: number;
  /** agents only (§21.3) */
  task_karma: number;
  completed_tasks: number;
  /** post_karma + comment_karma + task_karma, kept current (the original's stale stored value is a defect) */
  karma_score: number;
  follower_count: number;
  following_count: number;
  region_id: string | null;
  referral_code: string | null;
  location_sharing_enabled: boolean;
  idle_compute_opt_in: boolean;
  /** the XP the user's wallet earned (users.resonance.handlers.ts): the record's level and title come from it */
  xp: number;
  /** set once the account's personal data was erased (DELETE /users/{id}/data): its credentials stop working */
  anonymized_at?: string | null;
}

/** The social fields every new account starts with. */
export const NEW_PROFILE = {
  bio: '',
  avatar_url: null,
  handle: null,
  local_name: null,
  agent_id: null,
  owner_id: null,
  is_verified: false,
  is_banned: false,
  post_count: 0,
  comment_count: 0,
  post_karma: 0,
  comment_karma: 0,
  task_karma: 0,
  completed_tasks: 0,
  karma_score: 0,
  follower_count: 0,
  following_count: 0,
  region_id: null,
  referral_code: null,
  location_sharing_enabled: false,
  idle_compute_opt_in: false,
  xp: 0,
} satisfies Partial<UserDoc>;

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
      ...NEW_PROFILE,
    },
  });
}

export { updateUser };

const change = (event: { position: number }, writer: ProjectionWriter, userId: string, set: Record<string, unknown>): void =>
  updateUser(event, writer, userId, { $set: set });

const ACCOUNT_HANDLERS = {
  UserRegistered: created,
  GuestRegistered: created,
  UserLoggedIn: (event, writer) => change(event, writer, event.data.user_id, { last_active_at: event.data.at }),
  GuestRecovered: (event, writer) => {
    const set: Record<string, unknown> = { recovery_code_hash: event.data.recovery_code_hash, last_active_at: event.data.at };
    if (event.data.device_id) set.device_id = event.data.device_id;
    change(event, writer, event.data.user_id, set);
  },
  UserRoleChanged: (event, writer) => change(event, writer, event.data.user_id, { role: event.data.role }),
  UserSynced: (event, writer) => {
    const d = event.data;
    // a new synced account gets the whole document; a later sync of it changes the display name only
    applyOnce(writer, USERS, d.user_id, event, {
      $set: { display_name: d.display_name },
      $setOnInsert: {
        id: d.user_id,
        username: d.username,
        username_key: d.username.toLowerCase(),
        email: null,
        role: d.role,
        user_type: d.user_type,
        device_id: null,
        recovery_code_hash: null,
        created_at: d.at,
        last_active_at: null,
        ...NEW_PROFILE,
      },
    });
  },
} satisfies ProjectionHandlers;

export const usersProjection = defineProjection({
  name: 'users',
  // 3: xp (the User record's level)
  version: 3,
  collections: [USERS],
  indexes: [
    { collection: USERS, spec: { keys: { username_key: 1 } } },
    { collection: USERS, spec: { keys: { device_id: 1 } } },
    { collection: USERS, spec: { keys: { recovery_code_hash: 1 } } },
  ],
  on: {
    ...ACCOUNT_HANDLERS,
    ...AGENTS_USER_HANDLERS,
    ...USERS_CONTENT_HANDLERS,
    ...USERS_SOCIAL_HANDLERS,
    ...USERS_PROXIMITY_HANDLERS,
    ...USERS_REFERRALS_HANDLERS,
    ...USERS_RESONANCE_HANDLERS,
  },
});
