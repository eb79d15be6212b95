/**
 * Issues and reads access tokens: HS256 JWTs with a unique `jti` so one token
 * can be revoked (logout). Signing and verifying use fast-jwt; passport-jwt's
 * verifier is pointed at the same fast verifier (see jwt.strategy.ts).
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { createSigner, createVerifier } from 'fast-jwt';
import { APP_CONFIG, type AppConfig } from '../../../config/config';
import { ServiceSecrets } from './secrets';

export interface AccessTokenClaims {
  sub: string;
  username: string;
  role: string;
  jti: string;
  iat: number;
  exp: number;
  /** `refresh` on a refresh token (never accepted as an access token); absent on access tokens */
  typ?: string;
}

export interface RefreshTokenClaims {
  sub: string;
  jti: string;
  typ: 'refresh';
  iat: number;
  exp: number;
}

export const REFRESH_TYPE = 'refresh';

export interface IssuedToken {
  token: string;
  tokenId: string;
  expiresAt: string;
}

@Injectable()
export class TokenService {
  private readonly sign: (payload: Record<string, unknown>) => string;
  readonly verify: (token: string) => AccessTokenClaims;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig, secrets: ServiceSecrets) {
    this.sign = createSigner({ key: secrets.jwtSecret, algorithm: 'HS256', noTimestamp: true });
    this.verify = createVerifier({ key: secrets.jwtSecret, algorithms: ['HS256'], cache: true });
  }

  /** A token id is chosen before the login is recorded, so the event names the token. */
  newTokenId(): string {
    return randomUUID();
  }

  issue(user: { id: string; username: string; role: string }, tokenId: string, now: Date): IssuedToken {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + this.config.jwtTtlSeconds;
    const token = this.sign({ sub: user.id, username: user.username, role: user.role, jti: tokenId, iat, exp });
    return { token, tokenId, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** Seconds an access token lives (the refresh reply's `expires_in`). */
  get accessTtlSeconds(): number {
    return this.config.jwtTtlSeconds;
  }

  /** A new refresh token's id and expiry, chosen before the user stream records it. */
  newRefreshGrant(now: Date): { tokenId: string; expiresAt: string } {
    const exp = Math.floor(now.getTime() / 1000) + this.config.refreshTtlSeconds;
    return { tokenId: randomUUID(), expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** The refresh token for a grant the user stream recorded: signed like an access token, typed `refresh`. */
  signRefresh(userId: string, grant: { tokenId: string; expiresAt: string }, now: Date): string {
    const exp = Math.floor(Date.parse(grant.expiresAt) / 1000);
    return this.sign({ sub: userId, jti: grant.tokenId, typ: REFRESH_TYPE, iat: Math.floor(now.getTime() / 1000), exp });
  }

  /** The claims of a refresh token, or null when it is not one (bad signature, expired, an access token). */
  readRefresh(token: string): RefreshTokenClaims | null {
    try {
      const claims = this.verify(token) as unknown as RefreshTokenClaims;
      return claims.typ === REFRESH_TYPE && typeof claims.sub === 'string' && typeof claims.jti === 'string' ? claims : null;
    } catch {
      return null;
    }
  }
}
