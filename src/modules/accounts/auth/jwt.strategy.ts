/**
 * passport-jwt strategy. passport-jwt's default verifier (jsonwebtoken) costs
 * ~0.4 ms of CPU per request; its documented hook `JwtStrategy.JwtVerifier`
 * is pointed at fast-jwt's cached verifier instead (~100x faster), keeping the
 * strategy. A token is accepted only if it is not revoked and its user exists;
 * the role comes from the read model, so a role change applies at once.
 *
 * A token this node signed names a user this node registered: when the users
 * read model does not hold that user yet (a client using the token register
 * just returned, while the projection lags under load), the check waits,
 * bounded as read-your-writes is (DESIGN.md §4), for the read model to reach
 * the log's head before it refuses. Only validly signed tokens get there.
 */
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { Role } from '../../../aggregates/accounts/user.events';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { EVENT_STORE, type EventStore } from '../../../infrastructure/event-store/event-store.port';
import { ReadYourWrites } from '../../../infrastructure/projections/read-your-writes';
import { AccountsQueries } from '../accounts.queries';
import type { AuthUser } from './auth-user';
import { ServiceSecrets } from './secrets';
import { type AccessTokenClaims, REFRESH_TYPE, TokenService } from './token.service';
import { ACCOUNT_BANNED } from '../../../aggregates/accounts/user';

export const INVALID_TOKEN = 'Invalid or expired token';

type VerifyCallback = (error: Error | null, payload?: unknown) => void;

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    secrets: ServiceSecrets,
    tokens: TokenService,
    private readonly queries: AccountsQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: secrets.jwtSecret,
      algorithms: ['HS256'],
    });
    (Strategy as unknown as { JwtVerifier: unknown }).JwtVerifier = (
      token: string,
      _secret: unknown,
      _options: unknown,
      done: VerifyCallback,
    ) => {
      try {
        done(null, tokens.verify(token));
      } catch (error) {
        done(error as Error);
      }
    };
  }

  async validate(claims: AccessTokenClaims): Promise<AuthUser> {
    if (claims.typ === REFRESH_TYPE) throw new DomainError('unauthenticated', INVALID_TOKEN);
    const [user, revoked] = await Promise.all([
      this.userOf(claims.sub),
      this.queries.isTokenRevoked(claims.jti),
    ]);
    if (!user || revoked || user.anonymized_at) throw new DomainError('unauthenticated', INVALID_TOKEN);
    if (user.is_banned) throw new DomainError('unauthenticated', ACCOUNT_BANNED);
    return {
      id: user.id,
      username: user.username,
      role: user.role as Role,
      via: 'jwt',
      tokenId: claims.jti,
      tokenExpiresAt: new Date(claims.exp * 1000).toISOString(),
      apiKeyId: null,
      apiKeyTier: null,
    };
  }

  /** The token's user from the read model, waited for up to the log's head when it is not there yet. */
  private async userOf(id: string) {
    const user = await this.queries.userById(id);
    if (user) return user;
    await this.readYourWrites.waitFor(await this.events.headPosition(), ['UserRegistered']);
    return this.queries.userById(id);
  }
}
