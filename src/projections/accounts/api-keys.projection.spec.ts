import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { API_KEYS, apiKeysProjection as projection } from './api-keys.projection';

const issued = (keyId: string) =>
  recorded('ApiKeyIssued', { key_id: keyId, user_id: 'u1', name: 'ci', tier: 'free', secret_sha256: 'sha', issued_at: '2026-04-10T00:00:00.000Z' });
const revoked = (keyId: string) => recorded('ApiKeyRevoked', { key_id: keyId, user_id: 'u1', revoked_at: '2026-04-11T00:00:00.000Z' });

describe('apiKeys projection', () => {
  it('given an issued key, then a live key document with the secret hash', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, issued('k1'));
    expect(await store.collection(API_KEYS).findOne({ _id: 'k1' })).toMatchObject({
      user_id: 'u1',
      name: 'ci',
      tier: 'free',
      secret_sha256: 'sha',
      created_at: '2026-04-10T00:00:00.000Z',
      revoked: false,
      revoked_at: null,
    });
  });

  it('given an issued key then its revocation, then the key is revoked, and stays so when the issue is replayed', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const issue = issued('k2');
    await applyAll(projection, store, issue, revoked('k2'));
    await applyAll(projection, store, issue);
    expect(await store.collection(API_KEYS).findOne({ _id: 'k2' })).toMatchObject({ revoked: true, revoked_at: '2026-04-11T00:00:00.000Z' });
  });

  it('given a revocation of a key not projected, then no partial document is created', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, revoked('ghost'));
    expect(await store.collection(API_KEYS).countDocuments()).toBe(0);
  });
});
