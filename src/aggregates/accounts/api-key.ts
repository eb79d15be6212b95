/**
 * An API key (stream `apiKey-<keyId>`). The secret is shown once at issue and
 * only its SHA-256 is recorded: the secret has 256 bits of entropy, so a fast
 * hash is enough and lets every request check a key cheaply.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export type ApiKeyTier = 'free';
export const API_KEY_TIERS: readonly ApiKeyTier[] = ['free'];
/** Requests per UTC day, per key. */
export const DAILY_LIMITS: Record<ApiKeyTier, number> = { free: 100 };
/** What a token costs on each tier, in cents per million tokens (prompt and completion alike): the free tier is $0 per token (SPEC §8). */
export const CENTS_PER_MILLION_TOKENS: Record<ApiKeyTier, number> = { free: 0 };

export type ApiKeyEvent =
  | {
      type: 'ApiKeyIssued';
      /** `allowed_origins`: the only browser origins that may use the key (absent or empty: any, and requests without an Origin) */
      data: { key_id: string; user_id: string; name: string; tier: ApiKeyTier; secret_sha256: string; issued_at: string; allowed_origins?: string[] };
    }
  | { type: 'ApiKeyRevoked'; data: { key_id: string; user_id: string; revoked_at: string } };

/** Not issued yet, or issued to its owner and still usable or revoked. */
export type ApiKeyState = { status: 'none' } | { status: 'active' | 'revoked'; keyId: string; ownerId: string };

export type ApiKeyCommand =
  | { kind: 'issue'; keyId: string; userId: string; name: string; tier: ApiKeyTier; secretSha256: string; allowedOrigins: readonly string[] }
  | { kind: 'revoke'; requestedBy: string };

/**
 * May a request from `origin` (its Origin header, or null without one) use a
 * key restricted to `allowed`? An unrestricted key (none listed) may be used
 * from anywhere; a restricted one only from a listed origin, so a key copied
 * out of a site's page source is refused in any other site's browser.
 * Origins compare as browsers send them: scheme, host and port, lower case.
 */
export function originAllowed(allowed: readonly string[] | undefined, origin: string | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  return origin !== null && allowed.includes(origin.toLowerCase());
}

export function apiKeyStreamId(keyId: string): string {
  return `apiKey-${keyId}`;
}

export const apiKeyDecider: Decider<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyIssued':
        return { status: 'active', keyId: event.data.key_id, ownerId: event.data.user_id };
      case 'ApiKeyRevoked':
        return state.status === 'none' ? state : { ...state, status: 'revoked' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'issue':
        if (state.status !== 'none') throw new DomainError('conflict', 'API key already issued');
        return [
          {
            type: 'ApiKeyIssued',
            data: {
              key_id: command.keyId,
              user_id: command.userId,
              name: command.name,
              tier: command.tier,
              secret_sha256: command.secretSha256,
              issued_at: now.toISOString(),
              ...(command.allowedOrigins.length > 0 ? { allowed_origins: [...new Set(command.allowedOrigins)] } : {}),
            },
          },
        ];
      case 'revoke':
        if (state.status === 'none' || state.ownerId !== command.requestedBy) throw new DomainError('not_found', 'API key not found');
        if (state.status === 'revoked') return [];
        return [
          { type: 'ApiKeyRevoked', data: { key_id: state.keyId, user_id: state.ownerId, revoked_at: now.toISOString() } },
        ];
      default:
        return assertNever(command);
    }
  },
};
