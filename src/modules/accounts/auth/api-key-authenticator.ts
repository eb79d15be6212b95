/**
 * API keys: `ak_<keyId>_<secret>`, presented as `X-API-Key: <key>` or
 * `Authorization: Bearer <key>`. The key id finds the record; the secret's
 * SHA-256 is compared in constant time. Each accepted request counts against
 * the tier's daily limit (UTC day), with one atomic conditional increment per
 * request, so concurrent requests can never exceed the limit. A key issued
 * with `allowed_origins` answers only requests whose Origin header is listed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DAILY_LIMITS, type ApiKeyTier, originAllowed } from '../../../aggregates/accounts/api-key';
import type { Role } from '../../../aggregates/accounts/user.events';
import { ACCOUNT_BANNED } from '../../../aggregates/accounts/user';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { Clock } from '../../../infrastructure/clock';
import { DuplicateKeyError, READ_STORE, type ReadStore } from '../../../infrastructure/read-store/read-store.port';
import { AccountsQueries } from '../accounts.queries';
import type { AuthUser } from './auth-user';

export const API_KEY_PREFIX = 'ak_';
const KEY_PATTERN = /^ak_([a-f0-9]{16})_([A-Za-z0-9_-]{43})$/;
const USAGE = 'api_key_usage';
export const INVALID_API_KEY = 'Invalid API key';
/** The code of the daily-limit refusal (OpenAI's own for an exhausted quota). */
export const DAILY_LIMIT_CODE = 'insufficient_quota';
export const ORIGIN_NOT_ALLOWED = 'API key not allowed from this origin';

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function newApiKey(): { keyId: string; secret: string; key: string } {
  const keyId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { keyId, secret, key: `${API_KEY_PREFIX}${keyId}_${secret}` };
}

@Injectable()
export class ApiKeyAuthenticator {
  constructor(
    private readonly queries: AccountsQueries,
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly clock: Clock,
  ) {}

  static looksLikeApiKey(credential: string): boolean {
    return credential.startsWith(API_KEY_PREFIX);
  }

  /** `origin`: the request's Origin header (null without one), checked against a restricted key's list (403) before the quota is counted. */
  async authenticate(key: string, origin: string | null = null): Promise<AuthUser> {
    const match = KEY_PATTERN.exec(key);
    const invalid = () => new DomainError('unauthenticated', INVALID_API_KEY);
    if (!match) throw invalid();
    const [, keyId, secret] = match;
    const record = await this.queries.apiKey(keyId);
    if (!record || record.revoked || !sameHash(record.secret_sha256, sha256(secret))) {
      throw invalid();
    }
    const user = await this.queries.userById(record.user_id);
    if (!user || user.anonymized_at) throw invalid();
    if (user.is_banned) throw new DomainError('unauthenticated', ACCOUNT_BANNED);
    if (!originAllowed(record.allowed_origins, origin)) throw new DomainError('forbidden', ORIGIN_NOT_ALLOWED);
    await this.consumeDailyQuota(keyId, record.tier as ApiKeyTier);
    return {
      id: user.id,
      username: user.username,
      role: user.role as Role,
      via: 'api_key',
      tokenId: null,
      tokenExpiresAt: null,
      apiKeyId: keyId,
      apiKeyTier: record.tier as ApiKeyTier,
    };
  }

  /**
   * One conditional increment: it matches only while the day's count is
   * under the limit. At the limit the upsert clashes on `_id` (the document
   * exists but the filter did not match it). On MongoDB a clash also happens
   * when concurrent first requests of a day race to insert the document, so a
   * clash is settled by the same increment without the upsert: the document
   * exists by then, and only its count decides.
   */
  private async consumeDailyQuota(keyId: string, tier: ApiKeyTier): Promise<void> {
    const limit = DAILY_LIMITS[tier] ?? 0;
    const now = this.clock.now();
    const day = now.toISOString().slice(0, 10);
    const usage = this.store.collection(USAGE);
    const filter = { _id: `${keyId}:${day}`, count: { $lt: limit } };
    try {
      await usage.updateOne(filter, { $inc: { count: 1 }, $setOnInsert: { key_id: keyId, day } }, { upsert: true });
      return;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    if ((await usage.updateOne(filter, { $inc: { count: 1 } })).matchedCount === 1) return;
    const nextDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    throw new DomainError('rate_limited', `API key daily limit reached (${limit} requests per day on tier ${tier})`, {
      code: DAILY_LIMIT_CODE,
      retryAfterSec: (nextDay - now.getTime()) / 1000,
    });
  }
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
