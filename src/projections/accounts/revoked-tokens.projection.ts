/** `revoked_tokens`: token ids refused until they expire (logout). */
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';

export const REVOKED_TOKENS = 'revoked_tokens';

export interface RevokedTokenDoc extends Doc {
  user_id: string;
  expires_at: string;
}

export const revokedTokensProjection: ProjectionDefinition = {
  name: 'revokedTokens',
  version: 1,
  eventTypes: ['TokenRevoked'],
  collections: [REVOKED_TOKENS],
  apply(event: RecordedEvent, writer: ProjectionWriter): void {
    const { token_id, user_id, expires_at } = event.data as { token_id: string; user_id: string; expires_at: string };
    applyOnce(writer, REVOKED_TOKENS, token_id, event, { $set: { user_id, expires_at } });
  },
};
