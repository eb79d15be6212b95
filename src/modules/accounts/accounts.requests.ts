/**
 * Request bodies of the account routes. Unknown fields are dropped; a wrong
 * type or a missing field gives a 400 naming the field. Names shown to others
 * (display_name, guest_name, an API key's name) are NFC and hold no control,
 * bidi or invisible characters (`@IsName()`); a username's pattern allows
 * none anyway.
 */
import { Allow, ArrayMaxSize, IsArray, IsEmail, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { ROLES, type Role } from '../../aggregates/accounts/user.events';
import { API_KEY_TIERS, type ApiKeyTier } from '../../aggregates/accounts/api-key';
import { IsName } from '../common/body-fields';

export const USERNAME_PATTERN = /^[A-Za-z0-9_.@-]{2,50}$/;
const DEVICE_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
/** an origin as a browser sends it in `Origin`: scheme, host (name, IPv4 or [IPv6]) and an optional port */
const ORIGIN_PATTERN = /^https?:\/\/(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

export class RegisterRequest {
  @IsString()
  @Matches(USERNAME_PATTERN, { message: 'username must be 2-50 characters of letters, digits, _ . @ -' })
  username!: string;

  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  email!: string;

  @IsString()
  @Length(8, 128, { message: 'password must be 8-128 characters' })
  password!: string;

  @IsOptional()
  @IsString()
  @Length(1, 100, { message: 'display_name must be 1-100 characters' })
  @IsName()
  display_name?: string;

  /** a referral code (social-routes §14); any value is accepted, and one that refers nobody is ignored */
  @Allow()
  referral_code?: unknown;
}

export class LoginRequest {
  @IsString()
  @IsNotEmpty()
  @MaxLength(254)
  username!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  password!: string;
}

export class GuestRegisterRequest {
  @IsString()
  @Length(1, 50, { message: 'guest_name must be 1-50 characters' })
  @IsName()
  guest_name!: string;

  @IsOptional()
  @IsString()
  @Matches(DEVICE_ID_PATTERN, { message: 'device_id must be 1-128 characters of letters, digits, _ . : -' })
  device_id?: string;

  /** a referral code (social-routes §14, the newer version); any value is accepted, and one that refers nobody is ignored */
  @Allow()
  referral_code?: unknown;
}

export class GuestRecoverRequest {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  recovery_code!: string;

  @IsOptional()
  @IsString()
  @Matches(DEVICE_ID_PATTERN, { message: 'device_id must be 1-128 characters of letters, digits, _ . : -' })
  device_id?: string;
}

export class RefreshRequest {
  @IsString({ message: 'refresh_token is required' })
  @IsNotEmpty({ message: 'refresh_token is required' })
  @MaxLength(4096)
  refresh_token!: string;
}

/** POST /auth/sync-user: a peer node's signed user profile (social-routes §1). */
export class SyncUserRequest {
  @IsString({ message: 'node_id is required' })
  @Matches(/^[A-Za-z0-9_.:-]{1,128}$/, { message: 'node_id must be a node id (1-128 of letters, digits, _ . : -)' })
  node_id!: string;

  /** the sender's key as it says; must equal the one this node pinned for it */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  node_public_key?: string;

  /** base64 Ed25519 signature of the canonical JSON (sorted keys) of user_data */
  @IsString({ message: 'signature is required' })
  @Matches(/^[A-Za-z0-9+/=]{1,200}$/, { message: 'signature must be base64' })
  signature!: string;

  /** `id`, `username`, `display_name?`, `user_type?` (human, agent, guest), `role?` (never taken as privileged) */
  @IsObject({ message: 'user_data must be an object' })
  user_data!: Record<string, unknown>;
}

export class ChangeRoleRequest {
  @IsString()
  @IsIn(ROLES as Role[], { message: `role must be one of ${ROLES.join(', ')}` })
  role!: Role;
}

export class IssueApiKeyRequest {
  @IsString()
  @Length(1, 100, { message: 'name must be 1-100 characters' })
  @IsName()
  name!: string;

  @IsString()
  @IsIn(API_KEY_TIERS as ApiKeyTier[], { message: `tier must be one of ${API_KEY_TIERS.join(', ')}` })
  tier!: ApiKeyTier;

  /** browser origins (`https://shop.example`, `http://localhost:8080`) that alone may use the key; left out: any */
  @IsOptional()
  @IsArray({ message: 'allowed_origins must be an array of origins' })
  @ArrayMaxSize(20, { message: 'allowed_origins holds at most 20 origins' })
  @IsString({ each: true, message: 'allowed_origins must be an array of origins' })
  @Matches(ORIGIN_PATTERN, { each: true, message: 'each allowed origin is scheme://host[:port], http or https, with no path' })
  allowed_origins?: string[];
}
