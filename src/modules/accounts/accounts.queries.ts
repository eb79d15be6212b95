/** Read-model lookups the accounts module needs. Filters are built from typed values only. */
import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { ACCOUNT_STATS, ACCOUNT_STATS_ID, type AccountStatsDoc } from '../../projections/accounts/account-stats.projection';
import { API_KEYS, type ApiKeyDoc } from '../../projections/accounts/api-keys.projection';
import { REVOKED_TOKENS } from '../../projections/accounts/revoked-tokens.projection';
import { USERS, type UserDoc } from '../../projections/accounts/users.projection';

@Injectable()
export class AccountsQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  userById(id: string): Promise<UserDoc | null> {
    return this.store.collection<UserDoc>(USERS).findOne({ _id: String(id) });
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
