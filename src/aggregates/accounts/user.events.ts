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
  | { type: 'UserRoleChanged'; data: { user_id: string; role: Role; previous_role: Role; changed_by: string; at: string } }
  /** a refresh token (a signed JWT of type `refresh`, id `token_id`) handed out with a session, valid until `expires_at` */
  | { type: 'RefreshTokenIssued'; data: { user_id: string; token_id: string; expires_at: string; at: string } }
  /** `previous_token_id` was exchanged (and is dead) for `token_id` and the access token `access_token_id` */
  | {
      type: 'RefreshTokenRotated';
      data: { user_id: string; previous_token_id: string; token_id: string; access_token_id: string; expires_at: string; at: string };
    }
  /** a long-lived api_token (`at_<token_id>_<secret>`); only the secret's SHA-256 is kept */
  | { type: 'ApiTokenIssued'; data: { user_id: string; token_id: string; secret_sha256: string; at: string } }
  | { type: 'ApiTokensRevoked'; data: { user_id: string; token_ids: string[]; at: string } }
  /** the fields that changed (user text as written); `updated_by` the owner or an admin */
  | { type: 'UserProfileUpdated'; data: { user_id: string; changes: ProfileChanges; updated_by: string; at: string } }
  | { type: 'UserHandleChanged'; data: { user_id: string; handle: string | null; previous_handle: string | null; at: string } }
  | { type: 'UserBanned'; data: { user_id: string; banned_by: string; at: string } }
  | { type: 'UserUnbanned'; data: { user_id: string; unbanned_by: string; at: string } }
  /**
   * a user profile synced from a peer node (POST /auth/sync-user, signature
   * verified): an account without password or e-mail here; `role` is never
   * privileged (user, guest or agent)
   */
  | {
      type: 'UserSynced';
      data: { user_id: string; username: string; display_name: string; user_type: UserType; role: Role; origin_node: string; at: string };
    }
  /**
   * personal data erased in place (social-routes §2): the account keeps its id and this new username; its data keys are
   * erased with it (crypto-shredding, personal-data.ts), the content key too when `content_erased` (absent before: false)
   */
  | { type: 'UserAnonymized'; data: { user_id: string; username: string; display_name: string; requested_by: string; content_erased?: boolean; at: string } };

/** What a profile edit may change; an absent field is unchanged. */
export interface ProfileChanges {
  display_name?: string;
  bio?: string;
  avatar_url?: string | null;
  is_verified?: boolean;
}

export type UserEventType = UserEvent['type'];
export const USER_EVENT_TYPES: readonly UserEventType[] = [
  'UserRegistered',
  'GuestRegistered',
  'UserLoggedIn',
  'UserLoginFailed',
  'TokenRevoked',
  'GuestRecovered',
  'UserRoleChanged',
  'RefreshTokenIssued',
  'RefreshTokenRotated',
  'ApiTokenIssued',
  'ApiTokensRevoked',
  'UserProfileUpdated',
  'UserHandleChanged',
  'UserBanned',
  'UserUnbanned',
  'UserAnonymized',
  'UserSynced',
];

export function userStreamId(userId: string): string {
  return `user-${userId}`;
}
