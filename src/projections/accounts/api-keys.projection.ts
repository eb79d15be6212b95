/** `api_keys`: issued keys by id, with the secret's hash for request checks. */
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import type { ApiKeyEvent } from '../../aggregates/accounts/api-key';
import { applyOnce } from '../support/apply-once';

export const API_KEYS = 'api_keys';

export interface ApiKeyDoc extends Doc {
  user_id: string;
  name: string;
  tier: string;
  secret_sha256: string;
  created_at: string;
  revoked: boolean;
  revoked_at: string | null;
}

export const apiKeysProjection: ProjectionDefinition = {
  name: 'apiKeys',
  version: 1,
  eventTypes: ['ApiKeyIssued', 'ApiKeyRevoked'],
  collections: [API_KEYS],
  indexes: [{ collection: API_KEYS, spec: { keys: { user_id: 1 } } }],
  apply(event: RecordedEvent, writer: ProjectionWriter): void {
    const e = event as RecordedEvent & ApiKeyEvent;
    if (e.type === 'ApiKeyIssued') {
      const { key_id, user_id, name, tier, secret_sha256, issued_at } = e.data;
      applyOnce(writer, API_KEYS, key_id, event, {
        $set: { user_id, name, tier, secret_sha256, created_at: issued_at, revoked: false, revoked_at: null },
      });
    } else {
      applyOnce(writer, API_KEYS, e.data.key_id, event, { $set: { revoked: true, revoked_at: e.data.revoked_at } }, { upsert: false });
    }
  },
};
