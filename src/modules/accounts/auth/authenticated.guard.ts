/**
 * The one authentication guard. Routes opt in with @Authenticated(...roles).
 * API keys (prefix `ak_`) are checked here; anything else goes to passport-jwt.
 * No credential at all: 401 `unauthenticated`.
 */
import { applyDecorators, type ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import type { Role } from '../../../aggregates/accounts/user.events';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiTokenAuthenticator } from './api-token-authenticator';
import type { AuthUser } from './auth-user';
import { INVALID_TOKEN } from './jwt.strategy';

export const UNAUTHENTICATED = 'unauthenticated';
const ROLES = 'auth:roles';
const ALLOW_API_KEYS = 'auth:apiKeys';
const API_KEYS_ONLY = 'auth:apiKeysOnly';
export const API_KEY_REQUIRED = 'This route needs an API key (ak_...), not a bearer JWT';
const UNIFORM_401 = 'auth:uniform401';
const ROLE_REFUSAL = 'auth:roleRefusal';

type Request = FastifyRequest & { user?: AuthUser };

const unauthenticated = (message: string): DomainError => new DomainError('unauthenticated', message);
const isUnauthenticated = (error: unknown): error is DomainError => error instanceof DomainError && error.kind === 'unauthenticated';

/** The credential a request presents (X-API-Key, or Authorization with or without `Bearer`), or null. */
export function credentialOf(request: FastifyRequest): string | null {
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.trim()) return apiKey.trim();
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : header.trim() ? header.trim() : null;
}

/** The request's Origin header (a browser's page origin), or null without one. */
function originOf(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin ? origin : null;
}

@Injectable()
export class AuthenticatedGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyAuthenticator,
    private readonly apiTokens: ApiTokenAuthenticator,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.reflector.getAllAndOverride<boolean>(UNIFORM_401, [context.getHandler(), context.getClass()])) {
      return this.authenticate(context);
    }
    try {
      return await this.authenticate(context);
    } catch (error) {
      if (isUnauthenticated(error)) throw unauthenticated(UNAUTHENTICATED);
      throw error;
    }
  }

  private async authenticate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const credential = credentialOf(request);
    if (!credential) throw unauthenticated(UNAUTHENTICATED);
    if (ApiKeyAuthenticator.looksLikeApiKey(credential)) {
      if (this.reflector.getAllAndOverride<boolean>(ALLOW_API_KEYS, [context.getHandler(), context.getClass()]) === false) {
        throw unauthenticated('This route needs a bearer JWT, not an API key');
      }
      request.user = await this.apiKeys.authenticate(credential, originOf(request));
    } else if (ApiTokenAuthenticator.looksLikeApiToken(credential) && !this.reflector.getAllAndOverride<boolean>(API_KEYS_ONLY, [context.getHandler(), context.getClass()])) {
      request.user = await this.apiTokens.authenticate(credential);
    } else if (this.reflector.getAllAndOverride<boolean>(API_KEYS_ONLY, [context.getHandler(), context.getClass()])) {
      throw unauthenticated(API_KEY_REQUIRED);
    } else {
      await super.canActivate(context);
    }
    this.checkRole(context, request.user!);
    return true;
  }

  override handleRequest<T = AuthUser>(error: unknown, user: T | false): T {
    if (isUnauthenticated(error)) throw error;
    if (error || !user) throw unauthenticated(INVALID_TOKEN);
    return user;
  }

  private checkRole(context: ExecutionContext, user: AuthUser): void {
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES, [context.getHandler(), context.getClass()]);
    if (roles?.length && !roles.includes(user.role)) {
      const text = this.reflector.getAllAndOverride<string | undefined>(ROLE_REFUSAL, [context.getHandler(), context.getClass()]);
      throw new DomainError('forbidden', text ?? `${roles.join(' or ')} role required`);
    }
  }
}

/** What @Authenticated, @JwtOnly and their guards ask of a route's caller, as its handler and controller declare it (read by the OpenAPI document). */
export function authenticationRules(handler: object, controller: object): { roles: Role[]; apiKeys: boolean; jwt: boolean } {
  const declared = <T>(key: string): T | undefined => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
  return { roles: declared<Role[]>(ROLES) ?? [], apiKeys: declared<boolean>(ALLOW_API_KEYS) !== false, jwt: declared<boolean>(API_KEYS_ONLY) !== true };
}

/** Requires a valid JWT or API key; with roles, also one of those roles. */
export function Authenticated(...roles: Role[]): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(ROLES, roles), UseGuards(AuthenticatedGuard));
}

/** The 403 text of a caller without the role, where the contract fixes it (`Admin access required`, social-routes §0.2). */
export const RoleRefusal = (text: string): MethodDecorator & ClassDecorator => SetMetadata(ROLE_REFUSAL, text);

/**
 * Every 401 of the route says `unauthenticated`, whatever was wrong with the
 * credential (SPEC §5.2 for the encounter routes: a client cannot tell a
 * missing token from an expired or forged one).
 */
export const UniformUnauthenticated = (): MethodDecorator & ClassDecorator => SetMetadata(UNIFORM_401, true);

/** Refuses API keys on a route (e.g. key management needs a login). */
export const JwtOnly = (): MethodDecorator & ClassDecorator => SetMetadata(ALLOW_API_KEYS, false);

/** Refuses JWTs on a route: its use is metered per API key (the OpenAI-compatible API under /v1). */
export const ApiKeyOnly = (): MethodDecorator & ClassDecorator => SetMetadata(API_KEYS_ONLY, true);

/**
 * For routes open to anyone that do more for a known user (POST
 * /api/settings/compute/provider/join: an operator's join also sets the
 * policy): no credential passes with no user; a credential must be valid
 * (401 otherwise) and then sets request.user.
 */
@Injectable()
export class OptionalAuthenticationGuard {
  constructor(private readonly authenticated: AuthenticatedGuard) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!credentialOf(context.switchToHttp().getRequest<Request>())) return true;
    return this.authenticated.canActivate(context);
  }
}

/** No credential: anonymous; a credential: must be valid. */
export const OptionallyAuthenticated = (): MethodDecorator & ClassDecorator => UseGuards(OptionalAuthenticationGuard);

/**
 * The social platform's optional authentication (social-routes §0.2 "opt"):
 * a valid credential personalises the reply (request.user is set); no
 * credential, or one that does not authenticate, reads as anonymous and is
 * never refused. Read the viewer with `@Viewer()`.
 */
@Injectable()
export class OptionalViewerGuard {
  constructor(private readonly authenticated: AuthenticatedGuard) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!credentialOf(request)) return true;
    try {
      await this.authenticated.canActivate(context);
    } catch (error) {
      if (!isUnauthenticated(error)) throw error;
      request.user = undefined;
    }
    return true;
  }
}

/** A credential personalises the reply; a missing or bad one reads as anonymous. */
export const OptionalViewer = (): MethodDecorator & ClassDecorator => UseGuards(OptionalViewerGuard);
