/**
 * Account routes, served under /api/social/auth and (same handlers) /social/auth;
 * register and login also answer at the SPEC §4.4 bootstrap paths
 * POST /api/social/register and /api/social/login.
 */
import { Body, Controller, Get, HttpCode, NotFoundException, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { type Envelope, ok } from '../common/envelope';
import type { CommandContext } from '../common/command-executor';
import { RequestContext } from '../common/request-context';
import { AccountsQueries } from './accounts.queries';
import { Authenticated, JwtOnly } from './auth/authenticated.guard';
import type { AuthUser } from './auth/auth-user';
import { CurrentUser } from './auth/current-user.decorator';
import {
  type GuestSession,
  LogIn,
  LogOut,
  RecoverGuest,
  RegisterGuest,
  RegisterUser,
  type Session,
} from './commands/commands';
import { GuestRecoverDto, GuestRegisterDto, LoginDto, RegisterDto } from './dto/auth.dto';
import { toUserView, type UserView } from './user-view';

type RegisteredUser = UserView & { token: string };

@Controller(['api/social', 'social'])
export class AuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AccountsQueries,
  ) {}

  @Post(['auth/register', 'register'])
  async register(@Body() body: RegisterDto, @RequestContext() context: CommandContext): Promise<Envelope<RegisteredUser>> {
    const { user, token } = await this.commands.execute(
      new RegisterUser(
        { username: body.username, email: body.email, password: body.password, displayName: body.display_name ?? null },
        context,
      ),
    );
    return ok({ ...user, token });
  }

  @Post(['auth/login', 'login'])
  @HttpCode(200)
  async login(@Body() body: LoginDto, @RequestContext() context: CommandContext): Promise<Envelope<Session>> {
    return ok(await this.commands.execute(new LogIn(body.username, body.password, context)));
  }

  @Post('auth/logout')
  @HttpCode(200)
  @Authenticated()
  @JwtOnly()
  async logout(@CurrentUser() user: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ message: string }>> {
    await this.commands.execute(new LogOut(user, context));
    return ok({ message: 'Logged out' });
  }

  @Get('auth/me')
  @Authenticated()
  async me(@CurrentUser() user: AuthUser): Promise<Envelope<UserView>> {
    const doc = await this.queries.userById(user.id);
    if (!doc) throw new NotFoundException('user not found');
    return ok(toUserView(doc, true));
  }

  @Post('auth/guest-register')
  async guestRegister(
    @Body() body: GuestRegisterDto,
    @RequestContext() context: CommandContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<GuestSession>> {
    const session = await this.commands.execute(new RegisterGuest(body.guest_name, body.device_id ?? null, context));
    reply.status(session.existing ? 200 : 201);
    return ok(session);
  }

  @Post('auth/guest-recover')
  @HttpCode(200)
  async guestRecover(
    @Body() body: GuestRecoverDto,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<Session & { recovery_code: string }>> {
    return ok(await this.commands.execute(new RecoverGuest(body.recovery_code, body.device_id ?? null, context)));
  }
}
