import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { API_KEY_USAGE, type ApiKeyUsageDoc, apiKeyUsageProjection as projection } from './api-key-usage.projection';

const metered = (usage_id: string, at: string) =>
  recorded(
    'ApiUsageMetered',
    { usage_id, key_id: 'k1', user_id: 'u1', tier: 'free', model: 'm', prompt_tokens: 10, completion_tokens: 5, amount_cents: 0, occurred_at: at },
    { streamId: `apiUsage-${usage_id}` },
  );

describe('apiUsageByKey projection', () => {
  it('given two calls on one day, replayed, then the day counts them once each', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const a = metered('a', '2026-12-07T10:00:00.000Z');
    const b = metered('b', '2026-12-07T11:00:00.000Z');
    await applyAll(projection, store, a, b, a, b);
    expect(await store.collection<ApiKeyUsageDoc>(API_KEY_USAGE).findOne({ _id: 'k1:2026-12-07' })).toMatchObject({ request_count: 2, tokens_in: 20, tokens_out: 10, user_id: 'u1' });
  });
});
