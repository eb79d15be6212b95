import { applyAll, recorded } from '../../../test/support/projection-kit';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { API_TOKENS, apiTokensProjection } from './api-tokens.projection';

describe('api_tokens read model', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  it('given two issued api_tokens, when the account revokes one, then that one reads revoked and the other not', async () => {
    const at = '2026-11-23T10:00:00.000Z';
    await applyAll(
      apiTokensProjection,
      store,
      recorded('ApiTokenIssued', { user_id: 'u1', token_id: 't1', secret_sha256: 'abc', at }),
      recorded('ApiTokenIssued', { user_id: 'u1', token_id: 't2', secret_sha256: 'def', at }),
      recorded('ApiTokensRevoked', { user_id: 'u1', token_ids: ['t1'], at }),
    );
    const docs = await store.collection(API_TOKENS).find({}, { sort: { _id: 1 } });
    expect(docs.map((d) => [d._id, d.revoked])).toEqual([
      ['t1', true],
      ['t2', false],
    ]);
  });
});
