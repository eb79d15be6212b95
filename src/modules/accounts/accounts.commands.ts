/**
 * Commands of the accounts context, dispatched on the @nestjs/cqrs CommandBus.
 * Each payload is typed from its decider command, or, where the handler
 * derives the decider command (hashing a password, minting ids and secrets),
 * from the request it serves.
 */
import type { ApiKeyCommand, ApiKeyTier } from '../../aggregates/accounts/api-key';
import type { UserCommand } from '../../aggregates/accounts/user';
import type { CommandInput } from '../../aggregates/shared/decider';
import { DomainCommand } from '../common/domain-command';
import type { UserView } from './accounts.queries';
import type { GuestRecoverRequest, GuestRegisterRequest, LoginRequest, RegisterRequest } from './accounts.requests';

export interface Session {
  user: UserView;
  token: string;
  /** exchanged at POST /auth/refresh for a new token and a new refresh token (rotation) */
  refresh_token: string;
}

/** A registered human: the session plus the long-lived api_token (social-routes §1). */
export interface Registration extends Session {
  api_token: string;
}

/** The reply of POST /auth/refresh (social-routes §1). */
export interface RefreshedSession {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
}

export interface GuestSession extends Session {
  recovery_code: string | null;
  existing: boolean;
}

export type RecoveredSession = Session & { recovery_code: string };

export interface IssuedApiKey {
  id: string;
  name: string;
  tier: ApiKeyTier;
  key: string;
  /** the same key, under the name clients of similar services read */
  api_key: string;
  daily_limit: number;
  created_at: string;
  /** the browser origins that alone may use the key; empty: any */
  allowed_origins: string[];
}

export class RegisterUser extends DomainCommand<RegisterRequest, Registration> {}

export class LogIn extends DomainCommand<LoginRequest, Session> {}

/** Revokes the presented JWT (`tokenId`, valid until `expiresAt`) of `userId`. */
export class LogOut extends DomainCommand<CommandInput<UserCommand, 'revokeToken'> & { userId: string }, void> {}

export class RegisterGuest extends DomainCommand<GuestRegisterRequest, GuestSession> {}

export class RecoverGuest extends DomainCommand<GuestRecoverRequest, RecoveredSession> {}

/** Exchanges a refresh token (rotation: the presented one dies). */
export class RefreshSession extends DomainCommand<{ refreshToken: string }, RefreshedSession> {}

/** Issues a new api_token for `userId` (register, agent creation, bot registration, POST /auth/api-token); the token is in this reply only. */
export class IssueApiToken extends DomainCommand<{ userId: string }, { api_token: string }> {}

/** Revokes every api_token of `userId`. */
export class RevokeApiTokens extends DomainCommand<{ userId: string }, { revoked: number }> {}

/** Takes in a user profile a peer node signed (POST /auth/sync-user). */
export class SyncUser extends DomainCommand<{ nodeId: string; nodePublicKey?: string; signature: string; userData: Record<string, unknown> }, { synced: true }> {}

export class ChangeUserRole extends DomainCommand<CommandInput<UserCommand, 'changeRole'> & { userId: string }, UserView> {}

export class IssueApiKey extends DomainCommand<Pick<CommandInput<ApiKeyCommand, 'issue'>, 'userId' | 'name' | 'tier' | 'allowedOrigins'>, IssuedApiKey> {}

export class RevokeApiKey extends DomainCommand<CommandInput<ApiKeyCommand, 'revoke'> & { keyId: string }, void> {}
