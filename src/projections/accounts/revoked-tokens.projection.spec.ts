import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { REVOKED_TOKENS, revokedTokensProjection as projection } from './revoked-tokens.projection';

describe('revokedTokens projection', () => {
  it('given a revoked token, then a document keyed by token id holds its user and expiry', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, recorded('TokenRevoked', { user_id: 'u1', token_id: 't1', expires_at: '2026-04-11T00:00:00.000Z', at: 't' }));
    expect(await store.collection(REVOKED_TOKENS).find({})).toEqual([
      expect.objectContaining({ _id: 't1', user_id: 'u1', expires_at: '2026-04-11T00:00:00.000Z' }),
    ]);
  });
});
