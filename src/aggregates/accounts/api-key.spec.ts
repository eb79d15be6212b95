import { deciderKit } from '../../../test/support/decider-kit';
import { apiKeyDecider, type ApiKeyEvent, originAllowed } from './api-key';

const now = new Date('2026-11-22T10:00:00.000Z');
const { given } = deciderKit(apiKeyDecider, now);
const issued: ApiKeyEvent = {
  type: 'ApiKeyIssued',
  data: { key_id: 'k1', user_id: 'u1', name: 'ci', tier: 'free', secret_sha256: 'h', issued_at: now.toISOString() },
};
const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { key_id: 'k1', user_id: 'u1', revoked_at: now.toISOString() } };

describe('api key', () => {
  it('given nothing, when issuing, then ApiKeyIssued records the hash, never the secret', () =>
    given().when({ kind: 'issue', keyId: 'k1', userId: 'u1', name: 'ci', tier: 'free', secretSha256: 'h', allowedOrigins: [] }).then(issued));

  it('given an issued key, when its owner revokes it, then ApiKeyRevoked is recorded', () =>
    given(issued).when({ kind: 'revoke', requestedBy: 'u1' }).then(revoked));

  it('given an issued key, when someone else revokes it, then it reads as not found', () =>
    given(issued).when({ kind: 'revoke', requestedBy: 'u2' }).thenRefused('not_found', 'API key not found'));

  it('given a revoked key, then the state keeps its id and owner', () =>
    expect(given(issued, revoked).state()).toEqual({ status: 'revoked', keyId: 'k1', ownerId: 'u1' }));

  it('given a revoked key, when revoking again, then nothing more is recorded', () =>
    given(issued, revoked).when({ kind: 'revoke', requestedBy: 'u1' }).thenNothing());

  it('given origins, when issuing, then ApiKeyIssued lists each once', () =>
    given()
      .when({ kind: 'issue', keyId: 'k1', userId: 'u1', name: 'ci', tier: 'free', secretSha256: 'h', allowedOrigins: ['https://a.example', 'https://a.example'] })
      .then({ ...issued, data: { ...issued.data, allowed_origins: ['https://a.example'] } }));
});

describe('originAllowed', () => {
  it('given a key without origins, then any origin and none may use it', () => {
    expect(originAllowed(undefined, 'https://anywhere.example')).toBe(true);
    expect(originAllowed([], null)).toBe(true);
  });

  it('given a restricted key, then only a listed origin may use it, compared in lower case', () => {
    expect(originAllowed(['https://shop.example'], 'https://SHOP.example')).toBe(true);
    expect(originAllowed(['https://shop.example'], 'https://evil.example')).toBe(false);
  });

  it('given a restricted key, then a request without an Origin header is refused', () => {
    expect(originAllowed(['https://shop.example'], null)).toBe(false);
  });
});
