/** Events of a user account (stream `user-<userId>`). Field names are snake_case, as on the wire. */
export type Role = 'user' | 'guest' | 'agent' | 'operator' | 'admin';
export const ROLES: readonly Role[] = ['user', 'guest', 'agent', 'operator', 'admin'];
export type UserType = 'human' | 'guest' | 'agent';

export interface UserRegisteredData {
  user_id: string;
  username: string;
  email: string;
  display_name: string;
  role: Role;
  user_type: UserType;
  password_hash: string;
  registered_at: string;
}

export interface GuestRegisteredData {
  user_id: string;
  username: string;
  display_name: string;
  /** HMAC of the recovery code: the code itself is shown once and never stored */
  recovery_code_hash: string;
  device_id: string | null;
  registered_at: string;
}

export type UserEvent =
  | { type: 'UserRegistered'; data: UserRegisteredData }
  | { type: 'GuestRegistered'; data: GuestRegisteredData }
  | { type: 'UserLoggedIn'; data: { user_id: string; token_id: string; method: 'password' | 'device' | 'recovery_code'; at: string } }
  /** `locked`: refused by the lockout whatever the password (absent on events recorded before the lockout existed) */
  | { type: 'UserLoginFailed'; data: { user_id: string; at: string; locked?: boolean } }
  | { type: 'TokenRevoked'; data: { user_id: string; token_id: string; expires_at: string; at: string } }
  | {
      type: 'GuestRecovered';
      data: { user_id: string; token_id: string; recovery_code_hash: string; device_id: string | null; at: string };
    }
  | { type: 'UserRoleChanged'; data: { user_id: string; role: Role; previous_role: Role; changed_by: string; at: string } };

export type UserEventType = UserEvent['type'];
export const USER_EVENT_TYPES: readonly UserEventType[] = [
  'UserRegistered',
  'GuestRegistered',
  'UserLoggedIn',
  'UserLoginFailed',
  'TokenRevoked',
  'GuestRecovered',
  'UserRoleChanged',
];

export function userStreamId(userId: string): string {
  return `user-${userId}`;
}
