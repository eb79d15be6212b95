/**
 * Account routes, served under /api/social/auth and (same handlers) /social/auth;
 * register and login also answer at the SPEC §4.4 bootstrap paths
 * POST /api/social/register and /api/social/login. Registering takes from
 * the `register` bucket, signing in from `auth` (and guest recovery also from
 * `recovery`, one bucket for everyone: the code space is shared), 429 with
 * Retry-After (docs/security.md).
 */
import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { type Envelope, ok } from '../common/envelope';
import { RateLimited } from '../common/rate-limits/rate-limits';
import type { CommandContext } from '../common/command-executor';
import { RequestContext } from '../common/request-context';
import {
  type GuestSession,
  LogIn,
  LogOut,
  RecoverGuest,
  type RecoveredSession,
  RegisterGuest,
  RegisterUser,
  type Session,
} from './accounts.commands';
import { AccountsQueries, type UserView } from './accounts.queries';
import { GuestRecoverRequest, GuestRegisterRequest, LoginRequest, RegisterRequest } from './accounts.requests';
import { Authenticated, JwtOnly } from './auth/authenticated.guard';
import type { AuthUser } from './auth/auth-user';
import { CurrentUser } from './auth/current-user.decorator';
import { EnvelopeReply, Refusal } from '../common/openapi';
import { GUEST_SESSION, LOGGED_OUT, RECOVERED_SESSION, REGISTERED_USER, SESSION, USER_VIEW } from './accounts.replies';

type RegisteredUser = UserView & { token: string };

@Controller(['api/social', 'social'])
export class AuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AccountsQueries,
  ) {}

  @Post(['auth/register', 'register'])
  @EnvelopeReply(201, REGISTERED_USER, 'registered, with a bearer JWT')
  @Refusal(409, '`Username already taken` or `Email already registered`')
  @RateLimited('register')
  async register(@Body() body: RegisterRequest, @RequestContext() context: CommandContext): Promise<Envelope<RegisteredUser>> {
    const { user, token } = await this.commands.execute(new RegisterUser(body, context));
    return ok({ ...user, token });
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
  @EnvelopeReply(200, LOGGED_OUT, 'the presented token is revoked')
  @Authenticated()
  @JwtOnly()
  async logout(@CurrentUser() user: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ message: string }>> {
    // a JWT-only route: the token's id and expiry are set
    await this.commands.execute(new LogOut({ userId: user.id, tokenId: user.tokenId!, expiresAt: user.tokenExpiresAt! }, context));
    return ok({ message: 'Logged out' });
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
