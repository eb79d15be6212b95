/** `api_tokens`: the long-lived api_tokens by id (social-routes §0.2), with the secret's hash for request checks. */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const API_TOKENS = 'api_tokens';

export interface ApiTokenDoc extends Doc {
  user_id: string;
  secret_sha256: string;
  created_at: string;
  revoked: boolean;
}

export const apiTokensProjection = defineProjection({
  name: 'apiTokens',
  version: 1,
  collections: [API_TOKENS],
  on: {
    ApiTokenIssued: (event, writer) => {
      const { token_id, user_id, secret_sha256, at } = event.data;
      applyOnce(writer, API_TOKENS, token_id, event, { $set: { user_id, secret_sha256, created_at: at, revoked: false } });
    },
    ApiTokensRevoked: (event, writer) => {
      for (const tokenId of event.data.token_ids) {
        applyOnce(writer, API_TOKENS, tokenId, event, { $set: { revoked: true } }, { upsert: false });
      }
    },
  },
});
