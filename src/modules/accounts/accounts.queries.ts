/**
 * Reads of the accounts context: read models only (users, API keys, revoked
 * tokens, counters). Filters are built from typed values only. Command
 * handlers use these lookups only to find a stream (a user by name or by
 * recovery-code hash); what a command replies comes from its own outcome.
 */
import { Inject, Injectable } from '@nestjs/common';
import { levelOf } from '../../aggregates/contest/levels';
import { DomainError } from '../../aggregates/shared/domain-error';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { ACCOUNT_STATS, ACCOUNT_STATS_ID, type AccountStatsDoc } from '../../projections/accounts/account-stats.projection';
import { API_KEYS, type ApiKeyDoc } from '../../projections/accounts/api-keys.projection';
import { REVOKED_TOKENS } from '../../projections/accounts/revoked-tokens.projection';
import { NEW_PROFILE, USERS, type UserDoc } from '../../projections/accounts/users.projection';
import { escapeHtml } from '../common/html-escape';

/** The User record as clients see it (social-routes §0.5); `email` only in the owner's own view. */
export interface UserView {
  id: string;
  username: string;
  email?: string | null;
  display_name: string;
  bio: string;
  avatar_url: string | null;
  user_type: string;
  agent_id: string | null;
  handle: string | null;
  local_name: string | null;
  is_verified: boolean;
  role: string;
  is_admin: boolean;
  is_moderator: boolean;
  karma_score: number;
  task_karma: number;
  post_count: number;
  comment_count: number;
  level: number;
  level_title: string;
  referral_code: string | null;
  region_id: string | null;
  location_sharing_enabled: boolean;
  idle_compute_opt_in: boolean;
  created_at: string;
  last_active_at: string | null;
}

/**
 * What a user view is made of: a `users` document, or the user aggregate's
 * state after a command (which knows the account, not the social profile:
 * missing profile fields read as a new account's).
 */
export type UserRecord = Pick<UserDoc, 'id' | 'username' | 'email' | 'display_name' | 'role' | 'user_type' | 'created_at' | 'last_active_at'> &
  Partial<Omit<UserDoc, '_id'>>;

/** `self` adds private fields (e-mail) for the account's owner. User text is HTML-escaped (§0.1). */
export function toUserView(record: UserRecord, self: boolean): UserView {
  const user = { ...NEW_PROFILE, ...record };
  const view: UserView = {
    id: user.id,
    username: user.username,
    display_name: escapeHtml(user.display_name),
    bio: escapeHtml(user.bio),
    avatar_url: user.avatar_url,
    user_type: user.user_type,
    agent_id: user.agent_id,
    handle: user.handle,
    local_name: user.local_name,
    is_verified: user.is_verified,
    role: user.role,
    is_admin: isAdminRole(user.role),
    is_moderator: isModeratorRole(user.role),
    karma_score: user.karma_score,
    task_karma: user.task_karma,
    post_count: user.post_count,
    comment_count: user.comment_count,
    ...levelFields(user.xp),
    referral_code: user.referral_code,
    region_id: user.region_id,
    location_sharing_enabled: user.location_sharing_enabled,
    idle_compute_opt_in: user.idle_compute_opt_in,
    created_at: user.created_at,
    last_active_at: user.last_active_at,
  };
  if (self) view.email = user.email;
  return view;
}

/** The record's level and title from the XP the user's wallet earned (levels.ts; level 1, Newcomer, at 0). */
function levelFields(xp: number): { level: number; level_title: string } {
  const { level, title } = levelOf(xp);
  return { level, level_title: title };
}

/** The flags follow the role (§0.2): admins are moderators too. */
export const isAdminRole = (role: string): boolean => role === 'admin';
export const isModeratorRole = (role: string): boolean => role === 'admin' || role === 'operator';

@Injectable()
export class AccountsQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  userById(id: string): Promise<UserDoc | null> {
    return this.store.collection<UserDoc>(USERS).findOne({ _id: String(id) });
  }

  /** The caller's own account (GET /auth/me); 404 when the read model does not hold it. */
  async ownView(userId: string): Promise<UserView> {
    const doc = await this.userById(userId);
    if (!doc) throw new DomainError('not_found', 'user not found');
    return toUserView(doc, true);
  }

  /** Users by id, for shaping lists that embed a user (`Post+author`): one read for a page. Unknown ids are absent from the map. */
  async usersByIds(ids: Iterable<string>): Promise<Map<string, UserDoc>> {
    const unique = [...new Set([...ids].map(String))];
    if (unique.length === 0) return new Map();
    const docs = await this.store.collection<UserDoc>(USERS).find({ _id: { $in: unique } });
    return new Map(docs.map((doc) => [doc.id, doc]));
  }

  userByUsername(username: string): Promise<UserDoc | null> {
    return this.store.collection<UserDoc>(USERS).findOne({ username_key: String(username).toLowerCase() });
  }

  userByRecoveryHash(hash: string): Promise<UserDoc | null> {
    return this.store.collection<UserDoc>(USERS).findOne({ recovery_code_hash: String(hash) });
  }

  async isTokenRevoked(tokenId: string): Promise<boolean> {
    return (await this.store.collection(REVOKED_TOKENS).countDocuments({ _id: String(tokenId) })) > 0;
  }

  apiKey(keyId: string): Promise<ApiKeyDoc | null> {
    return this.store.collection<ApiKeyDoc>(API_KEYS).findOne({ _id: String(keyId) });
  }

  apiKeysOf(userId: string): Promise<ApiKeyDoc[]> {
    return this.store.collection<ApiKeyDoc>(API_KEYS).find({ user_id: String(userId) }, { sort: { created_at: 1 } });
  }

  stats(): Promise<AccountStatsDoc | null> {
    return this.store.collection<AccountStatsDoc>(ACCOUNT_STATS).findOne({ _id: ACCOUNT_STATS_ID });
  }
}
