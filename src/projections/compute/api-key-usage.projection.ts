/**
 * `apiUsageByKey`: what each API key used of the OpenAI-compatible API per
 * UTC day (`api_key_usage`, `_id` `<key id>:<YYYY-MM-DD>`), from
 * `ApiUsageMetered`: requests, prompt and completion tokens, the amount in
 * cents. GET /audit/compute/usage sums the days asked for.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const API_KEY_USAGE = 'api_key_usage';

export interface ApiKeyUsageDoc extends Doc {
  key_id: string;
  user_id: string;
  day: string;
  request_count: number;
  tokens_in: number;
  tokens_out: number;
  amount_cents: number;
}

export const apiKeyUsageProjection = defineProjection({
  name: 'apiUsageByKey',
  version: 1,
  collections: [API_KEY_USAGE],
  indexes: [{ collection: API_KEY_USAGE, spec: { keys: { user_id: 1, day: 1 } } }, { collection: API_KEY_USAGE, spec: { keys: { day: 1 } } }],
  on: {
    ApiUsageMetered: (event, writer) => {
      const d = event.data;
      const day = d.occurred_at.slice(0, 10);
      applyOnce(writer, API_KEY_USAGE, `${d.key_id}:${day}`, event, {
        $inc: { request_count: 1, tokens_in: d.prompt_tokens, tokens_out: d.completion_tokens, amount_cents: d.amount_cents },
        $set: { key_id: d.key_id, user_id: d.user_id, day },
      });
    },
  },
});
