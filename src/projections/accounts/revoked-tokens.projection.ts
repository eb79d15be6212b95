/** `revoked_tokens`: token ids refused until they expire (logout). */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const REVOKED_TOKENS = 'revoked_tokens';

export interface RevokedTokenDoc extends Doc {
  user_id: string;
  expires_at: string;
}

export const revokedTokensProjection = defineProjection({
  name: 'revokedTokens',
  version: 1,
  collections: [REVOKED_TOKENS],
  on: {
    TokenRevoked: (event, writer) => {
      const { token_id, user_id, expires_at } = event.data;
      applyOnce(writer, REVOKED_TOKENS, token_id, event, { $set: { user_id, expires_at } });
    },
  },
});
