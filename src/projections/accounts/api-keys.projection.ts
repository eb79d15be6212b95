/** `api_keys`: issued keys by id, with the secret's hash for request checks. */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const API_KEYS = 'api_keys';

export interface ApiKeyDoc extends Doc {
  user_id: string;
  name: string;
  tier: string;
  secret_sha256: string;
  created_at: string;
  revoked: boolean;
  revoked_at: string | null;
  /** the browser origins the key is restricted to; empty: any */
  allowed_origins: string[];
}

export const apiKeysProjection = defineProjection({
  name: 'apiKeys',
  version: 1,
  collections: [API_KEYS],
  indexes: [{ collection: API_KEYS, spec: { keys: { user_id: 1 } } }],
  on: {
    ApiKeyIssued: (event, writer) => {
      const { key_id, user_id, name, tier, secret_sha256, issued_at, allowed_origins = [] } = event.data;
      applyOnce(writer, API_KEYS, key_id, event, {
        $set: { user_id, name, tier, secret_sha256, created_at: issued_at, revoked: false, revoked_at: null, allowed_origins },
      });
    },
    ApiKeyRevoked: (event, writer) =>
      applyOnce(writer, API_KEYS, event.data.key_id, event, { $set: { revoked: true, revoked_at: event.data.revoked_at } }, { upsert: false }),
  },
});
