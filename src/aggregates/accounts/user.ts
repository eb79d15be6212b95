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
import type { GuestRegisteredData, Role, UserEvent, UserRegisteredData, UserType } from './user.events';

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
  | { kind: 'register'; registration: Omit<UserRegisteredData, 'registered_at'> }
  | { kind: 'registerGuest'; registration: Omit<GuestRegisteredData, 'registered_at'> }
  | { kind: 'recordLogin'; tokenId: string; method: 'password' | 'device'; passwordVerified: boolean }
  | { kind: 'revokeToken'; tokenId: string; expiresAt: string }
  | { kind: 'recoverGuest'; presentedCodeHash: string; newCodeHash: string; tokenId: string; deviceId: string | null }
  | { kind: 'changeRole'; role: Role; changedBy: string };

/** One text for every failed credential check, so callers cannot probe which part was wrong. */
export const INVALID_CREDENTIALS = 'Invalid username or password';
export const INVALID_RECOVERY_CODE = 'Invalid recovery code';

const initialState: UserState = { status: 'none' };

function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
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
    default:
      return assertNever(event);
  }
}

function decide(command: UserCommand, state: UserState, now: Date): UserEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'register':
      if (state.status !== 'none') throw new DomainError('conflict', 'User already registered');
      return [{ type: 'UserRegistered', data: { ...command.registration, registered_at: at } }];
    case 'registerGuest':
      if (state.status !== 'none') throw new DomainError('conflict', 'User already registered');
      return [{ type: 'GuestRegistered', data: { ...command.registration, registered_at: at } }];
    case 'recordLogin':
      if (state.status === 'none') throw new DomainError('unauthenticated', INVALID_CREDENTIALS);
      if (state.status === 'registered' && isLockedOut(state.failedLogins, now)) {
        return [{ type: 'UserLoginFailed', data: { user_id: state.userId, at, locked: true } }];
      }
      if (!command.passwordVerified) return [{ type: 'UserLoginFailed', data: { user_id: state.userId, at, locked: false } }];
      return [
        { type: 'UserLoggedIn', data: { user_id: state.userId, token_id: command.tokenId, method: command.method, at } },
      ];
    case 'revokeToken':
      if (state.status === 'none') throw new DomainError('not_found', 'user not found');
      return [
        { type: 'TokenRevoked', data: { user_id: state.userId, token_id: command.tokenId, expires_at: command.expiresAt, at } },
      ];
    case 'recoverGuest':
      if (state.status !== 'guest' || !sameSecretHash(state.recoveryCodeHash, command.presentedCodeHash)) {
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
    default:
      return assertNever(command);
  }
}

/** Compares two hashes of a secret in time that does not depend on where they differ. */
function sameSecretHash(stored: string, presented: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = { initialState, evolve, decide };
