/**
 * The user account aggregate. Password and recovery-code checks that need a
 * slow hash happen before `decide` (the handler passes the verdict in), so
 * `decide` stays pure and cheap. The state also keeps what a client is shown
 * of the account (name, e-mail, times), so a command's reply is built from the
 * state it left, never from a read model that may lag.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import type { GuestRegisteredData, Role, UserEvent, UserRegisteredData, UserType } from './user.events';

export interface UserState {
  exists: boolean;
  userId: string | null;
  username: string | null;
  email: string | null;
  displayName: string | null;
  userType: UserType | null;
  role: Role | null;
  passwordHash: string | null;
  recoveryCodeHash: string | null;
  registeredAt: string | null;
  /** the last login or recovery (a guest's registration counts) */
  lastActiveAt: string | null;
}

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

const initialState: UserState = {
  exists: false,
  userId: null,
  username: null,
  email: null,
  displayName: null,
  userType: null,
  role: null,
  passwordHash: null,
  recoveryCodeHash: null,
  registeredAt: null,
  lastActiveAt: null,
};

function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        ...state,
        exists: true,
        userId: event.data.user_id,
        username: event.data.username,
        email: event.data.email,
        displayName: event.data.display_name,
        userType: event.data.user_type,
        role: event.data.role,
        passwordHash: event.data.password_hash,
        registeredAt: event.data.registered_at,
        lastActiveAt: null,
      };
    case 'GuestRegistered':
      return {
        ...state,
        exists: true,
        userId: event.data.user_id,
        username: event.data.username,
        email: null,
        displayName: event.data.display_name,
        userType: 'guest',
        role: 'guest',
        recoveryCodeHash: event.data.recovery_code_hash,
        registeredAt: event.data.registered_at,
        lastActiveAt: event.data.registered_at,
      };
    case 'GuestRecovered':
      return { ...state, recoveryCodeHash: event.data.recovery_code_hash, lastActiveAt: event.data.at };
    case 'UserRoleChanged':
      return { ...state, role: event.data.role };
    case 'UserLoggedIn':
      return { ...state, lastActiveAt: event.data.at };
    case 'UserLoginFailed':
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
      if (state.exists) throw new DomainError('conflict', 'User already registered');
      return [{ type: 'UserRegistered', data: { ...command.registration, registered_at: at } }];
    case 'registerGuest':
      if (state.exists) throw new DomainError('conflict', 'User already registered');
      return [{ type: 'GuestRegistered', data: { ...command.registration, registered_at: at } }];
    case 'recordLogin':
      if (!state.exists) throw new DomainError('unauthenticated', INVALID_CREDENTIALS);
      if (!command.passwordVerified) return [{ type: 'UserLoginFailed', data: { user_id: state.userId!, at } }];
      return [
        { type: 'UserLoggedIn', data: { user_id: state.userId!, token_id: command.tokenId, method: command.method, at } },
      ];
    case 'revokeToken':
      if (!state.exists) throw new DomainError('not_found', 'user not found');
      return [
        { type: 'TokenRevoked', data: { user_id: state.userId!, token_id: command.tokenId, expires_at: command.expiresAt, at } },
      ];
    case 'recoverGuest':
      if (!state.exists || state.userType !== 'guest' || state.recoveryCodeHash !== command.presentedCodeHash) {
        throw new DomainError('unauthenticated', INVALID_RECOVERY_CODE);
      }
      return [
        {
          type: 'GuestRecovered',
          data: {
            user_id: state.userId!,
            token_id: command.tokenId,
            recovery_code_hash: command.newCodeHash,
            device_id: command.deviceId,
            at,
          },
        },
      ];
    case 'changeRole':
      if (!state.exists) throw new DomainError('not_found', 'user not found');
      if (state.role === command.role) return [];
      return [
        {
          type: 'UserRoleChanged',
          data: { user_id: state.userId!, role: command.role, previous_role: state.role!, changed_by: command.changedBy, at },
        },
      ];
    default:
      return assertNever(command);
  }
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = { initialState, evolve, decide };
