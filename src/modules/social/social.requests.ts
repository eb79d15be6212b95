/**
 * Request bodies and query strings of the social accounts routes. Unknown
 * fields are dropped; a wrong type gives a 400 naming the field. Handles are
 * read by `handleOf` (the contract fixes the rule and its texts).
 */
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { ROLES, type Role } from '../../aggregates/accounts/user.events';
import { IsName } from '../common/body-fields';

/** 2–15 letters a–z once lower-cased, and not one of these (social-routes §2). */
export const HANDLE_PATTERN = /^[a-z]{2,15}$/;
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  'admin',
  'administrator',
  'api',
  'help',
  'login',
  'logout',
  'mod',
  'moderator',
  'null',
  'official',
  'register',
  'root',
  'security',
  'settings',
  'social',
  'staff',
  'support',
  'system',
  'undefined',
  'www',
]);

/** The handle as stored, or the reason it is refused. */
export function handleRule(raw: string): { handle: string; error: null } | { handle: string; error: string } {
  const handle = raw.trim().toLowerCase();
  if (!HANDLE_PATTERN.test(handle)) return { handle, error: 'Handle must be 2-15 letters (a-z)' };
  if (RESERVED_HANDLES.has(handle)) return { handle, error: 'Handle is reserved' };
  return { handle, error: null };
}

const HTTP_URL = /^https?:\/\/\S{1,490}$/;

export class UpdateProfileRequest {
  @IsOptional()
  @IsString()
  @Length(1, 100, { message: 'display_name must be 1-100 characters' })
  @IsName()
  display_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500, { message: 'bio must be at most 500 characters' })
  bio?: string;

  @IsOptional()
  @IsString()
  @Matches(HTTP_URL, { message: 'avatar_url must be an http(s) URL of at most 500 characters' })
  avatar_url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(50)
  handle?: string;
}

export class HandleRequest {
  @IsString({ message: 'handle is required' })
  @MaxLength(50)
  handle!: string;
}

export class MarkReadRequest {
  @IsArray({ message: 'ids must be an array of notification ids' })
  @ArrayMaxSize(500, { message: 'ids holds at most 500 ids' })
  @IsString({ each: true, message: 'ids must be an array of notification ids' })
  @MaxLength(100, { each: true })
  ids!: string[];
}

export class AdminUpdateUserRequest {
  @IsOptional()
  @IsString()
  @Length(1, 100, { message: 'display_name must be 1-100 characters' })
  @IsName()
  display_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500, { message: 'bio must be at most 500 characters' })
  bio?: string;

  @IsOptional()
  @IsBoolean({ message: 'is_verified must be a boolean' })
  is_verified?: boolean;

  @IsOptional()
  @IsBoolean({ message: 'is_banned must be a boolean' })
  is_banned?: boolean;

  /** this service's roles; the original's `regional` reads as operator and `central` as admin (§0.2) */
  @IsOptional()
  @IsString()
  @Transform(({ value }) => (value === 'regional' ? 'operator' : value === 'central' ? 'admin' : value === 'flat' ? 'user' : value))
  @IsIn(ROLES as Role[], { message: `role must be one of ${ROLES.join(', ')} (or regional, central, flat)` })
  role?: Role;
}

export const USER_TYPES = ['human', 'agent', 'guest'] as const;
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
