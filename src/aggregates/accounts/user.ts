/**
 * The user account aggregate. Password and recovery-code checks that need a
 * slow hash happen before `decide` (the handler passes the verdict in), so
 * `decide` stays pure and cheap. The state also keeps what a client is shown
 * of the account (name, e-mail, times), so a command's reply is built from the
 * state it left, never from a read model that may lag.
 */
import { timingSafeEqual } from 'node:crypto';
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import type { GuestRegisteredData, ProfileChanges, Role, UserEvent, UserRegisteredData, UserType } from './user.events';

/** What every account shows, whichever way it was registered. */
export interface UserProfile {
  userId: string;
  username: string;
  displayName: string;
  userType: UserType;
  role: Role;
  registeredAt: string;
  /** the last login or recovery (a guest's registration counts); null until then */
  lastActiveAt: string | null;
  bio: string;
  avatarUrl: string | null;
  isVerified: boolean;
  handle: string | null;
  banned: boolean;
  /** personal data erased (DELETE /users/{id}/data): no credential of the account works any more */
  anonymized: boolean;
  /** live refresh tokens: token id → expiry */
  refreshTokens: Readonly<Record<string, string>>;
  /** live api_token ids */
  apiTokenIds: readonly string[];
  /** the peer node the profile was synced from; null for an account made here */
  syncedFrom: string | null;
}

/** A user may hold this many live refresh tokens (one per signed-in device); the oldest goes first. */
export const MAX_REFRESH_TOKENS = 20;
export const INVALID_REFRESH_TOKEN = 'Invalid or expired refresh token';
export const ACCOUNT_BANNED = 'Account banned';
const DELETED_DISPLAY_NAME = 'Deleted User';

/** A refresh token handed out with a session. */
export interface RefreshGrant {
  tokenId: string;
  expiresAt: string;
}

/** Failed password logins since `since` (the first of them), for the lockout. */
export interface FailedLogins {
  count: number;
  since: string;
}

/**
 * Login lockout (docs/security.md): LOCKOUT_FAILURES failed logins lock the
 * username until LOCKOUT_MS after the first of them; failures are forgotten
 * FAILURES_FORGOTTEN_MS after the first, or once a lock has run out (so a
 * guesser gets at most LOCKOUT_FAILURES tries per LOCKOUT_MS). A locked
 * login is refused with the wrong-password answer, whatever the password.
 */
export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60_000;
export const FAILURES_FORGOTTEN_MS = 30 * 60_000;

/** Whether the failures lock the username at `now`. */
export function isLockedOut(failures: FailedLogins | null, now: Date): boolean {
  return failures !== null && failures.count >= LOCKOUT_FAILURES && now.getTime() < Date.parse(failures.since) + LOCKOUT_MS;
}

function afterFailure(failures: FailedLogins | null, at: string): FailedLogins {
  if (failures === null) return { count: 1, since: at };
  const age = Date.parse(at) - Date.parse(failures.since);
  const lockRanOut = failures.count >= LOCKOUT_FAILURES && age >= LOCKOUT_MS;
  if (age >= FAILURES_FORGOTTEN_MS || lockRanOut) return { count: 1, since: at };
  return { count: failures.count + 1, since: failures.since };
}

/**
 * No account yet; an account registered with e-mail and password; or a guest,
 * who has neither and signs back in with a one-time recovery code.
 */
export type UserState =
  | { status: 'none' }
  | (UserProfile & { status: 'registered'; email: string; passwordHash: string; failedLogins: FailedLogins | null })
  | (UserProfile & { status: 'guest'; recoveryCodeHash: string });

export type UserAccount = Exclude<UserState, { status: 'none' }>;

export type UserCommand =
  | {
      kind: 'register';
      registration: Omit<UserRegisteredData, 'registered_at'>;
      refresh?: RefreshGrant;
      apiToken?: { tokenId: string; secretSha256: string };
    }
  | { kind: 'registerGuest'; registration: Omit<GuestRegisteredData, 'registered_at'>; refresh?: RefreshGrant }
  | { kind: 'recordLogin'; tokenId: string; method: 'password' | 'device'; passwordVerified: boolean; refresh?: RefreshGrant }
  | { kind: 'revokeToken'; tokenId: string; expiresAt: string }
  | {
      kind: 'recoverGuest';
      presentedCodeHash: string;
      newCodeHash: string;
      tokenId: string;
      deviceId: string | null;
      refresh?: RefreshGrant;
    }
  | { kind: 'changeRole'; role: Role; changedBy: string }
  /** exchanges the live refresh token `presentedTokenId` for `refresh` and the access token `accessTokenId` (rotation) */
  | { kind: 'refreshSession'; presentedTokenId: string; accessTokenId: string; refresh: RefreshGrant }
  | { kind: 'issueApiToken'; tokenId: string; secretSha256: string }
  | { kind: 'revokeApiTokens' }
  | { kind: 'updateProfile'; changes: ProfileChanges; updatedBy: string }
  /** the caller claimed `handle` (claim stream) before; null clears it */
  | { kind: 'changeHandle'; handle: string | null }
  | { kind: 'ban'; by: string }
  | { kind: 'unban'; by: string }
  | { kind: 'anonymize'; username: string; requestedBy: string; eraseContent: boolean }
  /** a profile from `originNode` (its signature verified by the caller); the username was claimed first */
  | { kind: 'syncProfile'; userId: string; username: string; displayName: string; userType: UserType; role: Role; originNode: string };

/** One text for every failed credential check, so callers cannot probe which part was wrong. */
export const INVALID_CREDENTIALS = 'Invalid username or password';
export const INVALID_RECOVERY_CODE = 'Invalid recovery code';

const initialState: UserState = { status: 'none' };

const NEW_ACCOUNT = {
  bio: '',
  avatarUrl: null,
  isVerified: false,
  handle: null,
  banned: false,
  anonymized: false,
  refreshTokens: {},
  apiTokenIds: [],
  syncedFrom: null,
} satisfies Partial<UserProfile>;

/** What a synced profile may carry as its role: never a privileged one (social-routes §1 sync-user). */
export function unprivilegedRole(role: unknown, userType: UserType): Role {
  if (role === 'guest' || userType === 'guest') return 'guest';
  if (role === 'agent' || userType === 'agent') return 'agent';
  return 'user';
}

/** The live refresh tokens once `tokenId` is added at `at`: expired ones dropped, at most MAX_REFRESH_TOKENS, oldest out. */
function withRefreshToken(tokens: Readonly<Record<string, string>>, tokenId: string, expiresAt: string, at: string): Record<string, string> {
  const live = Object.entries(tokens).filter(([, expiry]) => expiry > at);
  return Object.fromEntries([...live, [tokenId, expiresAt] as const].slice(-MAX_REFRESH_TOKENS));
}

function withoutRefreshToken(tokens: Readonly<Record<string, string>>, tokenId: string): Record<string, string> {
  return Object.fromEntries(Object.entries(tokens).filter(([id]) => id !== tokenId));
}

function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        ...NEW_ACCOUNT,
        status: 'registered',
        userId: event.data.user_id,
        username: event.data.username,
        email: event.data.email,
        displayName: event.data.display_name,
        userType: event.data.user_type,
        role: event.data.role,
        passwordHash: event.data.password_hash,
        registeredAt: event.data.registered_at,
        lastActiveAt: null,
        failedLogins: null,
      };
    case 'GuestRegistered':
      return {
        ...NEW_ACCOUNT,
        status: 'guest',
        userId: event.data.user_id,
        username: event.data.username,
        displayName: event.data.display_name,
        userType: 'guest',
        role: 'guest',
        recoveryCodeHash: event.data.recovery_code_hash,
        registeredAt: event.data.registered_at,
        lastActiveAt: event.data.registered_at,
      };
    case 'GuestRecovered':
      if (state.status !== 'guest') return state;
      return { ...state, recoveryCodeHash: event.data.recovery_code_hash, lastActiveAt: event.data.at };
    case 'UserRoleChanged':
      if (state.status === 'none') return state;
      return { ...state, role: event.data.role };
    case 'UserLoggedIn':
      if (state.status === 'none') return state;
      if (state.status === 'registered') return { ...state, lastActiveAt: event.data.at, failedLogins: null };
      return { ...state, lastActiveAt: event.data.at };
    case 'UserLoginFailed':
      if (state.status !== 'registered') return state;
      return { ...state, failedLogins: afterFailure(state.failedLogins, event.data.at) };
    case 'TokenRevoked':
      return state;
    case 'RefreshTokenIssued':
      if (state.status === 'none') return state;
      return { ...state, refreshTokens: withRefreshToken(state.refreshTokens, event.data.token_id, event.data.expires_at, event.data.at) };
    case 'RefreshTokenRotated': {
      if (state.status === 'none') return state;
      const rest = withoutRefreshToken(state.refreshTokens, event.data.previous_token_id);
      return { ...state, refreshTokens: withRefreshToken(rest, event.data.token_id, event.data.expires_at, event.data.at) };
    }
    case 'ApiTokenIssued':
      if (state.status === 'none') return state;
      return { ...state, apiTokenIds: [...state.apiTokenIds, event.data.token_id] };
    case 'ApiTokensRevoked':
      if (state.status === 'none') return state;
      return { ...state, apiTokenIds: state.apiTokenIds.filter((id) => !event.data.token_ids.includes(id)) };
    case 'UserProfileUpdated': {
      if (state.status === 'none') return state;
      const c = event.data.changes;
      return {
        ...state,
        displayName: c.display_name ?? state.displayName,
        bio: c.bio ?? state.bio,
        avatarUrl: c.avatar_url !== undefined ? c.avatar_url : state.avatarUrl,
        isVerified: c.is_verified ?? state.isVerified,
      };
    }
    case 'UserHandleChanged':
      if (state.status === 'none') return state;
      return { ...state, handle: event.data.handle };
    case 'UserBanned':
      if (state.status === 'none') return state;
      return { ...state, banned: true };
    case 'UserUnbanned':
      if (state.status === 'none') return state;
      return { ...state, banned: false };
    case 'UserSynced':
      if (state.status !== 'none') return { ...state, displayName: event.data.display_name };
      return {
        ...NEW_ACCOUNT,
        status: 'registered',
        userId: event.data.user_id,
        username: event.data.username,
        email: '',
        displayName: event.data.display_name,
        userType: event.data.user_type,
        role: event.data.role,
        passwordHash: '',
        registeredAt: event.data.at,
        lastActiveAt: null,
        failedLogins: null,
        syncedFrom: event.data.origin_node,
      };
    case 'UserAnonymized': {
      if (state.status === 'none') return state;
      const erased = {
        ...state,
        username: event.data.username,
        displayName: event.data.display_name,
        bio: '',
        avatarUrl: null,
        handle: null,
        anonymized: true,
        refreshTokens: {},
        apiTokenIds: [],
      };
      return erased.status === 'registered' ? { ...erased, email: '', passwordHash: '' } : { ...erased, recoveryCodeHash: '' };
    }
    default:
      return assertNever(event);
  }
}

/** The account, or 404 when there is none. */
function existing(state: UserState): UserAccount {
  if (state.status === 'none') throw new DomainError('not_found', 'User not found');
  return state;
}

/** The account a refresh token belongs to, refused with 401 once erased (as an unknown token) or banned. */
function refreshable(state: UserState): UserAccount {
  if (state.status === 'none' || state.anonymized) throw new DomainError('unauthenticated', INVALID_REFRESH_TOKEN);
  if (state.banned) throw new DomainError('unauthenticated', ACCOUNT_BANNED);
  return state;
}

const refreshIssued = (userId: string, grant: RefreshGrant | undefined, at: string): UserEvent[] =>
  grant ? [{ type: 'RefreshTokenIssued', data: { user_id: userId, token_id: grant.tokenId, expires_at: grant.expiresAt, at } }] : [];

function decide(command: UserCommand, state: UserState, now: Date): UserEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'register':
      if (state.status !== 'none') throw new DomainError('conflict', 'User already registered');
      return [
        { type: 'UserRegistered', data: { ...command.registration, registered_at: at } },
        ...refreshIssued(command.registration.user_id, command.refresh, at),
        ...(command.apiToken
          ? [
              {
                type: 'ApiTokenIssued' as const,
                data: { user_id: command.registration.user_id, token_id: command.apiToken.tokenId, secret_sha256: command.apiToken.secretSha256, at },
              },
            ]
          : []),
      ];
    case 'registerGuest':
      if (state.status !== 'none') throw new DomainError('conflict', 'User already registered');
      return [
        { type: 'GuestRegistered', data: { ...command.registration, registered_at: at } },
        ...refreshIssued(command.registration.user_id, command.refresh, at),
      ];
    case 'recordLogin':
      if (state.status === 'none' || state.banned || state.anonymized) throw new DomainError('unauthenticated', INVALID_CREDENTIALS);
      if (state.status === 'registered' && isLockedOut(state.failedLogins, now)) {
        return [{ type: 'UserLoginFailed', data: { user_id: state.userId, at, locked: true } }];
      }
      if (!command.passwordVerified) return [{ type: 'UserLoginFailed', data: { user_id: state.userId, at, locked: false } }];
      return [
        { type: 'UserLoggedIn', data: { user_id: state.userId, token_id: command.tokenId, method: command.method, at } },
        ...refreshIssued(state.userId, command.refresh, at),
      ];
    case 'revokeToken':
      if (state.status === 'none') throw new DomainError('not_found', 'user not found');
      return [
        { type: 'TokenRevoked', data: { user_id: state.userId, token_id: command.tokenId, expires_at: command.expiresAt, at } },
      ];
    case 'recoverGuest':
      if (state.status !== 'guest' || state.banned || state.anonymized || !sameSecretHash(state.recoveryCodeHash, command.presentedCodeHash)) {
        throw new DomainError('unauthenticated', INVALID_RECOVERY_CODE);
      }
      return [
        {
          type: 'GuestRecovered',
          data: {
            user_id: state.userId,
            token_id: command.tokenId,
            recovery_code_hash: command.newCodeHash,
            device_id: command.deviceId,
            at,
          },
        },
        ...refreshIssued(state.userId, command.refresh, at),
      ];
    case 'changeRole':
      if (state.status === 'none') throw new DomainError('not_found', 'user not found');
      if (state.role === command.role) return [];
      return [
        {
          type: 'UserRoleChanged',
          data: { user_id: state.userId, role: command.role, previous_role: state.role, changed_by: command.changedBy, at },
        },
      ];
    case 'refreshSession': {
      const account = refreshable(state);
      const expiry = account.refreshTokens[command.presentedTokenId];
      if (!expiry || expiry <= at) throw new DomainError('unauthenticated', INVALID_REFRESH_TOKEN);
      return [
        {
          type: 'RefreshTokenRotated',
          data: {
            user_id: account.userId,
            previous_token_id: command.presentedTokenId,
            token_id: command.refresh.tokenId,
            access_token_id: command.accessTokenId,
            expires_at: command.refresh.expiresAt,
            at,
          },
        },
      ];
    }
    case 'issueApiToken': {
      const account = existing(state);
      if (account.banned || account.anonymized) throw new DomainError('forbidden', ACCOUNT_BANNED);
      return [{ type: 'ApiTokenIssued', data: { user_id: account.userId, token_id: command.tokenId, secret_sha256: command.secretSha256, at } }];
    }
    case 'revokeApiTokens': {
      const account = existing(state);
      if (account.apiTokenIds.length === 0) return [];
      return [{ type: 'ApiTokensRevoked', data: { user_id: account.userId, token_ids: [...account.apiTokenIds], at } }];
    }
    case 'updateProfile': {
      const account = existing(state);
      const changes = changedFields(account, command.changes);
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'UserProfileUpdated', data: { user_id: account.userId, changes, updated_by: command.updatedBy, at } }];
    }
    case 'changeHandle': {
      const account = existing(state);
      if (account.handle === command.handle) return [];
      return [{ type: 'UserHandleChanged', data: { user_id: account.userId, handle: command.handle, previous_handle: account.handle, at } }];
    }
    case 'ban': {
      const account = existing(state);
      return account.banned ? [] : [{ type: 'UserBanned', data: { user_id: account.userId, banned_by: command.by, at } }];
    }
    case 'unban': {
      const account = existing(state);
      return account.banned ? [{ type: 'UserUnbanned', data: { user_id: account.userId, unbanned_by: command.by, at } }] : [];
    }
    case 'syncProfile': {
      if (state.status !== 'none' && state.syncedFrom !== command.originNode) {
        throw new DomainError('conflict', 'User exists on this node');
      }
      if (state.status !== 'none' && (state.displayName === command.displayName || state.anonymized)) return [];
      const role = unprivilegedRole(command.role, command.userType);
      return [
        {
          type: 'UserSynced',
          data: {
            user_id: command.userId,
            username: state.status === 'none' ? command.username : state.username,
            display_name: command.displayName,
            user_type: command.userType,
            role: state.status === 'none' ? role : state.role,
            origin_node: command.originNode,
            at,
          },
        },
      ];
    }
    case 'anonymize': {
      const account = existing(state);
      if (account.anonymized) return [];
      return [
        {
          type: 'UserAnonymized',
          data: { user_id: account.userId, username: command.username, display_name: DELETED_DISPLAY_NAME, requested_by: command.requestedBy, content_erased: command.eraseContent, at },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

/** The fields of `changes` that differ from the account's. */
function changedFields(account: UserAccount, changes: ProfileChanges): ProfileChanges {
  const current: Required<ProfileChanges> = {
    display_name: account.displayName,
    bio: account.bio,
    avatar_url: account.avatarUrl,
    is_verified: account.isVerified,
  };
  return Object.fromEntries(
    Object.entries(changes).filter(([field, value]) => value !== undefined && current[field as keyof ProfileChanges] !== value),
  ) as ProfileChanges;
}

/** Compares two hashes of a secret in time that does not depend on where they differ. */
function sameSecretHash(stored: string, presented: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = { initialState, evolve, decide };
