/** Accounts: users, guests, sessions, roles and API keys, event-sourced. */
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { CommonModule } from '../common/common.module';
import { AccountsQueries } from './accounts.queries';
import { AdminController } from './admin.controller';
import { ApiKeysController } from './api-keys.controller';
import { AuthController } from './auth.controller';
import { ApiKeyAuthenticator } from './auth/api-key-authenticator';
import { AuthenticatedGuard, OptionalAuthenticationGuard } from './auth/authenticated.guard';
import { JwtStrategy } from './auth/jwt.strategy';
import { PasswordHasher } from './auth/password-hasher';
import { ServiceSecrets } from './auth/secrets';
import { TokenService } from './auth/token.service';
import { Claims } from './claims';
import { IssueApiKeyHandler, RevokeApiKeyHandler } from './commands/api-keys.handlers';
import { ChangeUserRoleHandler } from './commands/change-user-role.handler';
import { LogInHandler } from './commands/log-in.handler';
import { LogOutHandler } from './commands/log-out.handler';
import { RecoverGuestHandler } from './commands/recover-guest.handler';
import { RegisterGuestHandler } from './commands/register-guest.handler';
import { RegisterUserHandler } from './commands/register-user.handler';
import { Sessions } from './commands/sessions';

@Module({
  imports: [PassportModule, CommonModule],
  controllers: [AuthController, AdminController, ApiKeysController],
  providers: [
    AccountsQueries,
    ServiceSecrets,
    PasswordHasher,
    TokenService,
    JwtStrategy,
    ApiKeyAuthenticator,
    AuthenticatedGuard,
    OptionalAuthenticationGuard,
    Claims,
    Sessions,
    RegisterUserHandler,
    LogInHandler,
    LogOutHandler,
    RegisterGuestHandler,
    RecoverGuestHandler,
    ChangeUserRoleHandler,
    IssueApiKeyHandler,
    RevokeApiKeyHandler,
  ],
  exports: [AuthenticatedGuard, OptionalAuthenticationGuard, ApiKeyAuthenticator, AccountsQueries],
})
export class AccountsModule {}
