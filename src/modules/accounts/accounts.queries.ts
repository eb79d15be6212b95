/**
 * Reads of the accounts context: read models only (users, API keys, revoked
 * tokens, counters). Filters are built from typed values only. Command
 * handlers use these lookups only to find a stream (a user by name or by
 * recovery-code hash); what a command replies comes from its own outcome.
 */
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { ACCOUNT_STATS, ACCOUNT_STATS_ID, type AccountStatsDoc } from '../../projections/accounts/account-stats.projection';
import { API_KEYS, type ApiKeyDoc } from '../../projections/accounts/api-keys.projection';
import { REVOKED_TOKENS } from '../../projections/accounts/revoked-tokens.projection';
import { USERS, type UserDoc } from '../../projections/accounts/users.projection';

/** The user record as clients see it (social API User shape, reduced to what accounts know). */
export interface UserView {
  id: string;
  username: string;
  email?: string | null;
  display_name: string;
  role: string;
  user_type: string;
  is_admin: boolean;
  is_moderator: boolean;
  created_at: string;
  last_active_at: string | null;
}

/** What a user view is made of: a `users` document, or the user aggregate's state after a command. */
export type UserRecord = Pick<UserDoc, 'id' | 'username' | 'email' | 'display_name' | 'role' | 'user_type' | 'created_at' | 'last_active_at'>;

/** `self` adds private fields (e-mail) for the account's owner. */
export function toUserView(user: UserRecord, self: boolean): UserView {
  const view: UserView = {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    user_type: user.user_type,
    is_admin: user.role === 'admin',
    is_moderator: user.role === 'admin' || user.role === 'operator',
    created_at: user.created_at,
    last_active_at: user.last_active_at,
  };
  if (self) view.email = user.email;
  return view;
}

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
