/** Accounts: users, guests, sessions, roles and API keys, event-sourced. */
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { CommonModule } from '../common/common.module';
import {
  ChangeUserRoleHandler,
  Claims,
  IssueApiKeyHandler,
  IssueApiTokenHandler,
  RefreshSessionHandler,
  RevokeApiTokensHandler,
  SyncUserHandler,
  LogInHandler,
  LogOutHandler,
  RecoverGuestHandler,
  RegisterGuestHandler,
  RegisterUserHandler,
  RevokeApiKeyHandler,
  Sessions,
} from './accounts.handlers';
import { AccountsQueries } from './accounts.queries';
import { AdminController } from './admin.controller';
import { ApiKeysController } from './api-keys.controller';
import { AuthController } from './auth.controller';
import { ApiKeyAuthenticator } from './auth/api-key-authenticator';
import { ApiTokenAuthenticator } from './auth/api-token-authenticator';
import { AuthenticatedGuard, OptionalAuthenticationGuard, OptionalViewerGuard } from './auth/authenticated.guard';
import { JwtStrategy } from './auth/jwt.strategy';
import { ActingUsers, PipelineCallerGuard } from './auth/pipeline-caller';
import { PasswordHasher } from './auth/password-hasher';
import { ServiceSecrets } from './auth/secrets';
import { TokenService } from './auth/token.service';

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
    OptionalViewerGuard,
    PipelineCallerGuard,
    ActingUsers,
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
    RefreshSessionHandler,
    IssueApiTokenHandler,
    RevokeApiTokensHandler,
    SyncUserHandler,
    ApiTokenAuthenticator,
  ],
  exports: [Claims, Sessions, ApiTokenAuthenticator, AuthenticatedGuard, OptionalAuthenticationGuard, OptionalViewerGuard, PipelineCallerGuard, ActingUsers, ApiKeyAuthenticator, AccountsQueries, TokenService, JwtStrategy],
})
export class AccountsModule {}
