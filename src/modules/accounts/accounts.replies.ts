/** Reply schemas of the account routes for the OpenAPI document (the `data` of `{success: true, data}`). */
import { ROLES } from '../../aggregates/accounts/user.events';
import { API_KEY_TIERS } from '../../aggregates/accounts/api-key';
import { bool, int, list, obj, oneOf, orNull, str } from '../common/openapi';

/** The User record (social-routes §0.5). */
export const USER_VIEW = obj(
  {
    id: str(),
    username: str(),
    email: orNull(str({ description: 'only in the owner’s own view' })),
    display_name: str({ description: 'HTML-escaped' }),
    bio: str({ description: 'HTML-escaped' }),
    avatar_url: orNull(str()),
    user_type: oneOf(['human', 'agent', 'guest']),
    agent_id: orNull(str()),
    handle: orNull(str()),
    local_name: orNull(str()),
    is_verified: bool(),
    role: oneOf(ROLES),
    is_admin: bool(),
    is_moderator: bool(),
    karma_score: int(),
    task_karma: int(),
    post_count: int(),
    comment_count: int(),
    level: int(),
    level_title: str(),
    referral_code: orNull(str()),
    region_id: orNull(str()),
    location_sharing_enabled: bool(),
    idle_compute_opt_in: bool(),
    created_at: str({ format: 'date-time' }),
    last_active_at: orNull(str({ format: 'date-time' })),
  },
  ['email'],
);

const REFRESH_TOKEN = str({ description: 'exchanged at POST /auth/refresh for a new pair (rotation)' });
export const REGISTERED_USER = {
  ...USER_VIEW,
  properties: {
    ...(USER_VIEW.properties as object),
    token: str(),
    refresh_token: REFRESH_TOKEN,
    api_token: str({ description: 'the long-lived api_token (`at_…`), accepted wherever a JWT is until revoked; shown only here' }),
  },
  required: [...(USER_VIEW.required as string[]), 'token', 'refresh_token', 'api_token'],
};
export const SESSION = obj({ user: USER_VIEW, token: str({ description: 'a bearer JWT' }), refresh_token: REFRESH_TOKEN });
export const GUEST_SESSION = obj({ user: USER_VIEW, token: str(), refresh_token: REFRESH_TOKEN, recovery_code: orNull(str()), existing: bool() });
export const RECOVERED_SESSION = obj({
  user: USER_VIEW,
  token: str(),
  refresh_token: REFRESH_TOKEN,
  recovery_code: str({ description: 'the new code: each works once' }),
});
export const REFRESHED_SESSION = obj({ access_token: str(), refresh_token: REFRESH_TOKEN, token_type: { const: 'bearer' }, expires_in: int() });
export const ISSUED_API_TOKEN = obj({ api_token: str({ description: 'shown only in this reply' }) });
export const REVOKED_API_TOKENS = obj({ revoked: int({ description: 'how many live api_tokens were revoked' }) });
export const LOGGED_OUT = obj({ message: str() });
export const ACCOUNT_STATS = obj(
  Object.fromEntries(['total_users', 'total_humans', 'total_agents', 'total_guests', 'logins', 'failed_logins', 'api_keys_issued', 'total_posts', 'total_comments', 'total_communities', 'pending_reports'].map((f) => [f, int()])),
);
export const ISSUED_API_KEY = obj({
  id: str(),
  name: str(),
  tier: oneOf(API_KEY_TIERS),
  key: str({ description: 'shown only in this reply' }),
  api_key: str({ description: 'the same key again' }),
  daily_limit: int(),
  created_at: str({ format: 'date-time' }),
  allowed_origins: list(str(), { description: 'the only browser origins (Origin header) that may use the key; empty: any' }),
});
export const API_KEY_SUMMARY = obj({
  id: str(),
  name: str(),
  tier: str(),
  daily_limit: int(),
  created_at: str({ format: 'date-time' }),
  revoked: bool(),
  allowed_origins: list(str()),
});
export const REVOKED_API_KEY = obj({ id: str(), revoked: { const: true } });
export const API_KEY_LIST = list(API_KEY_SUMMARY);
export const VERIFIED_USER = obj({ user_id: str(), username: str(), handle: orNull(str()), role: oneOf(ROLES), is_banned: bool() });
export const SYNCED = obj({ synced: { const: true } });
