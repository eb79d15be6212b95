/** Commands of the accounts context, dispatched on the @nestjs/cqrs CommandBus. */
import { Command } from '@nestjs/cqrs';
import type { ApiKeyTier } from '../../../aggregates/accounts/api-key';
import type { Role } from '../../../aggregates/accounts/user.events';
import type { CommandContext } from '../../common/command-executor';
import type { AuthUser } from '../auth/auth-user';
import type { UserView } from '../user-view';

export interface Session {
  user: UserView;
  token: string;
}

export class RegisterUser extends Command<Session> {
  constructor(
    readonly input: { username: string; email: string; password: string; displayName: string | null },
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class LogIn extends Command<Session> {
  constructor(
    readonly username: string,
    readonly password: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class LogOut extends Command<void> {
  constructor(
    readonly user: AuthUser,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export interface GuestSession extends Session {
  recovery_code: string | null;
  existing: boolean;
}

export class RegisterGuest extends Command<GuestSession> {
  constructor(
    readonly guestName: string,
    readonly deviceId: string | null,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class RecoverGuest extends Command<Session & { recovery_code: string }> {
  constructor(
    readonly recoveryCode: string,
    readonly deviceId: string | null,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class ChangeUserRole extends Command<UserView> {
  constructor(
    readonly userId: string,
    readonly role: Role,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export interface IssuedApiKey {
  id: string;
  name: string;
  tier: ApiKeyTier;
  key: string;
  /** the same key, under the name clients of similar services read */
  api_key: string;
  daily_limit: number;
  created_at: string;
}

export class IssueApiKey extends Command<IssuedApiKey> {
  constructor(
    readonly userId: string,
    readonly name: string,
    readonly tier: ApiKeyTier,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class RevokeApiKey extends Command<void> {
  constructor(
    readonly userId: string,
    readonly keyId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
