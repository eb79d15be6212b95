/**
 * Account routes, served under /api/social/auth and (same handlers) /social/auth;
 * register and login also answer at the SPEC §4.4 bootstrap paths
 * POST /api/social/register and /api/social/login. Registering takes from
 * the `register` bucket, signing in from `auth` (and guest recovery also from
 * `recovery`, one bucket for everyone: the code space is shared), 429 with
 * Retry-After (docs/security.md).
 */
import { Body, Controller, Delete, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { type Envelope, ok } from '../common/envelope';
import { RateLimited } from '../common/rate-limits/rate-limits';
import type { CommandContext } from '../common/command-executor';
import { RequestContext } from '../common/request-context';
import {
  type GuestSession,
  IssueApiToken,
  LogIn,
  LogOut,
  RecoverGuest,
  type RecoveredSession,
  RefreshSession,
  type RefreshedSession,
  RegisterGuest,
  RegisterUser,
  type Registration,
  RevokeApiTokens,
  type Session,
  SyncUser,
} from './accounts.commands';
import { AccountsQueries, type UserView } from './accounts.queries';
import { GuestRecoverRequest, GuestRegisterRequest, LoginRequest, RefreshRequest, RegisterRequest, SyncUserRequest } from './accounts.requests';
import { Authenticated, JwtOnly, RoleRefusal } from './auth/authenticated.guard';
import type { AuthUser } from './auth/auth-user';
import { CurrentUser } from './auth/current-user.decorator';
import { EnvelopeReply, QueryParam, Refusal } from '../common/openapi';
import {
  GUEST_SESSION,
  ISSUED_API_TOKEN,
  LOGGED_OUT,
  RECOVERED_SESSION,
  REFRESHED_SESSION,
  REGISTERED_USER,
  REVOKED_API_TOKENS,
  SESSION,
  SYNCED,
  USER_VIEW,
  VERIFIED_USER,
} from './accounts.replies';

type RegisteredUser = UserView & Omit<Registration, 'user'>;

@Controller(['api/social', 'social'])
export class AuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AccountsQueries,
  ) {}

  @Post(['auth/register', 'register'])
  @EnvelopeReply(201, REGISTERED_USER, 'registered, with a bearer JWT, a refresh token and the long-lived api_token')
  @Refusal(409, '`Username already taken` or `Email already registered`')
  @RateLimited('register')
  async register(@Body() body: RegisterRequest, @RequestContext() context: CommandContext): Promise<Envelope<RegisteredUser>> {
    const { user, ...tokens } = await this.commands.execute(new RegisterUser(body, context));
    return ok({ ...user, ...tokens });
  }

  @Post(['auth/login', 'login'])
  @HttpCode(200)
  @EnvelopeReply(200, SESSION)
  @Refusal(401, '`Invalid username or password` (also while the username is locked out)')
  @RateLimited('auth')
  async login(@Body() body: LoginRequest, @RequestContext() context: CommandContext): Promise<Envelope<Session>> {
    return ok(await this.commands.execute(new LogIn(body, context)));
  }

  @Post('auth/logout')
  @HttpCode(200)
  @EnvelopeReply(200, LOGGED_OUT, 'the presented token is revoked (with an api_token: every api_token of the account)')
  @Authenticated()
  @JwtOnly()
  async logout(@CurrentUser() user: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ message: string }>> {
    if (user.tokenId && user.tokenExpiresAt) {
      await this.commands.execute(new LogOut({ userId: user.id, tokenId: user.tokenId, expiresAt: user.tokenExpiresAt }, context));
    } else {
      await this.commands.execute(new RevokeApiTokens({ userId: user.id }, context));
    }
    return ok({ message: 'Logged out' });
  }

  @Post('auth/refresh')
  @HttpCode(200)
  @EnvelopeReply(200, REFRESHED_SESSION, 'a new access token and a new refresh token; the presented refresh token is dead')
  @Refusal(401, '`Invalid or expired refresh token` (also once used), `Account banned`')
  @RateLimited('auth')
  async refresh(@Body() body: RefreshRequest, @RequestContext() context: CommandContext): Promise<Envelope<RefreshedSession>> {
    return ok(await this.commands.execute(new RefreshSession({ refreshToken: body.refresh_token }, context)));
  }

  /**
   * A regional or central node checks a user (social-routes §1): this
   * service's operator stands for the original's `regional`, admin for
   * `central` (and its moderator/admin flags).
   */
  @Get('auth/verify-user')
  @EnvelopeReply(200, VERIFIED_USER)
  @QueryParam('user_id', { type: 'string' })
  @Refusal(404, '`User not found`')
  @Authenticated('operator', 'admin')
  @RoleRefusal('Regional access required')
  async verifyUser(@Query('user_id') userId: unknown): Promise<Envelope<Record<string, unknown>>> {
    if (typeof userId !== 'string' || userId.trim() === '') throw new DomainError('invalid', 'user_id is required');
    const user = await this.queries.userById(userId.trim());
    if (!user) throw new DomainError('not_found', 'User not found');
    return ok({ user_id: user.id, username: user.username, handle: user.handle, role: user.role, is_banned: user.is_banned });
  }

  @Post('auth/sync-user')
  @HttpCode(200)
  @EnvelopeReply(200, SYNCED, 'the profile is on this node (created, or its display name updated)')
  @Refusal(401, '`unverified node identity`: no key pinned for the node, another key named, or a signature that does not verify')
  @Refusal(409, '`User exists on this node` (an account made here, or synced from another node), `Username already taken`')
  @RateLimited('auth')
  async syncUser(@Body() body: SyncUserRequest, @RequestContext() context: CommandContext): Promise<Envelope<{ synced: true }>> {
    return ok(
      await this.commands.execute(
        new SyncUser({ nodeId: body.node_id, nodePublicKey: body.node_public_key, signature: body.signature, userData: body.user_data }, context),
      ),
    );
  }

  @Post('auth/api-token')
  @HttpCode(201)
  @EnvelopeReply(201, ISSUED_API_TOKEN, 'a new api_token for the caller (the ones issued before stay live until revoked)')
  @Authenticated()
  @JwtOnly()
  async issueApiToken(@CurrentUser() user: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ api_token: string }>> {
    return ok(await this.commands.execute(new IssueApiToken({ userId: user.id }, context)));
  }

  @Delete('auth/api-token')
  @EnvelopeReply(200, REVOKED_API_TOKENS, 'every api_token of the caller is revoked')
  @Authenticated()
  @JwtOnly()
  async revokeApiTokens(@CurrentUser() user: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ revoked: number }>> {
    return ok(await this.commands.execute(new RevokeApiTokens({ userId: user.id }, context)));
  }

  @Get('auth/me')
  @EnvelopeReply(200, USER_VIEW)
  @Authenticated()
  async me(@CurrentUser() user: AuthUser): Promise<Envelope<UserView>> {
    return ok(await this.queries.ownView(user.id));
  }

  @Post('auth/guest-register')
  @EnvelopeReply(201, GUEST_SESSION, 'a new guest, with its recovery code')
  @EnvelopeReply(200, GUEST_SESSION, 'the device is on file: that guest, `recovery_code: null`, `existing: true`')
  @RateLimited('register')
  async guestRegister(
    @Body() body: GuestRegisterRequest,
    @RequestContext() context: CommandContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<GuestSession>> {
    const session = await this.commands.execute(new RegisterGuest(body, context));
    reply.status(session.existing ? 200 : 201);
    return ok(session);
  }

  @Post('auth/guest-recover')
  @HttpCode(200)
  @EnvelopeReply(200, RECOVERED_SESSION)
  @Refusal(401, '`Invalid recovery code`')
  @RateLimited('auth', 'recovery')
  async guestRecover(
    @Body() body: GuestRecoverRequest,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<RecoveredSession>> {
    return ok(await this.commands.execute(new RecoverGuest(body, context)));
  }
}
