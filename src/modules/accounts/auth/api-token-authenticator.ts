/**
 * The long-lived api_token (social-routes §0.2): `at_<id>_<secret>`, returned
 * by register (and agent creation, bot registration), accepted wherever a JWT
 * is, until the account revokes it (DELETE /auth/api-token, or logging out
 * with it). Only the secret's SHA-256 is stored, compared in constant time.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ACCOUNT_BANNED } from '../../../aggregates/accounts/user';
import type { Role } from '../../../aggregates/accounts/user.events';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { READ_STORE, type ReadStore } from '../../../infrastructure/read-store/read-store.port';
import { API_TOKENS, type ApiTokenDoc } from '../../../projections/accounts/api-tokens.projection';
import { AccountsQueries } from '../accounts.queries';
import { sha256 } from './api-key-authenticator';
import type { AuthUser } from './auth-user';
import { INVALID_TOKEN } from './jwt.strategy';

const PREFIX = 'at_';
const TOKEN_PATTERN = /^at_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** A fresh api_token: its id, the secret's hash to record, and the token to hand out once. */
export function newApiToken(): { tokenId: string; secretSha256: string; token: string } {
  const tokenId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { tokenId, secretSha256: sha256(secret), token: `${PREFIX}${tokenId}_${secret}` };
}

@Injectable()
export class ApiTokenAuthenticator {
  constructor(
    private readonly queries: AccountsQueries,
    @Inject(READ_STORE) private readonly store: ReadStore,
  ) {}

  static looksLikeApiToken(credential: string): boolean {
    return credential.startsWith(PREFIX);
  }

  async authenticate(credential: string): Promise<AuthUser> {
    const invalid = () => new DomainError('unauthenticated', INVALID_TOKEN);
    const match = TOKEN_PATTERN.exec(credential);
    if (!match) throw invalid();
    const [, tokenId, secret] = match;
    const record = await this.store.collection<ApiTokenDoc>(API_TOKENS).findOne({ _id: tokenId });
    if (!record || record.revoked || !sameHash(record.secret_sha256, sha256(secret))) throw invalid();
    const user = await this.queries.userById(record.user_id);
    if (!user || user.anonymized_at) throw invalid();
    if (user.is_banned) throw new DomainError('unauthenticated', ACCOUNT_BANNED);
    return {
      id: user.id,
      username: user.username,
      role: user.role as Role,
      via: 'api_token',
      tokenId: null,
      tokenExpiresAt: null,
      apiKeyId: null,
      apiKeyTier: null,
    };
  }
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
