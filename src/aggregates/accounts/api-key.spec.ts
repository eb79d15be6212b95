import { DomainError } from '../shared/domain-error';
import { apiKeyDecider, type ApiKeyEvent } from './api-key';

const now = new Date('2026-11-22T10:00:00.000Z');
const given = (...events: ApiKeyEvent[]) => events.reduce(apiKeyDecider.evolve, apiKeyDecider.initialState);
const issued: ApiKeyEvent = {
  type: 'ApiKeyIssued',
  data: { key_id: 'k1', user_id: 'u1', name: 'ci', tier: 'free', secret_sha256: 'h', issued_at: now.toISOString() },
};

describe('api key', () => {
  it('given nothing, when issuing, then ApiKeyIssued records the hash, never the secret', () => {
    const events = apiKeyDecider.decide(
      { kind: 'issue', keyId: 'k1', userId: 'u1', name: 'ci', tier: 'free', secretSha256: 'h' },
      given(),
      now,
    );
    expect(events).toEqual([issued]);
  });

  it('given an issued key, when its owner revokes it, then ApiKeyRevoked is recorded', () => {
    expect(apiKeyDecider.decide({ kind: 'revoke', requestedBy: 'u1' }, given(issued), now)).toEqual([
      { type: 'ApiKeyRevoked', data: { key_id: 'k1', user_id: 'u1', revoked_at: now.toISOString() } },
    ]);
  });

  it('given an issued key, when someone else revokes it, then it reads as not found', () => {
    expect(() => apiKeyDecider.decide({ kind: 'revoke', requestedBy: 'u2' }, given(issued), now)).toThrow(
      new DomainError('not_found', 'API key not found'),
    );
  });

  it('given a revoked key, when revoking again, then nothing more is recorded', () => {
    const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { key_id: 'k1', user_id: 'u1', revoked_at: now.toISOString() } };
    expect(apiKeyDecider.decide({ kind: 'revoke', requestedBy: 'u1' }, given(issued, revoked), now)).toEqual([]);
  });
});
