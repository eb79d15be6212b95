/** Who a request acts as, once authenticated (request.user). */
import type { ApiKeyTier } from '../../../aggregates/accounts/api-key';
import type { Role } from '../../../aggregates/accounts/user.events';

export interface AuthUser {
  id: string;
  username: string;
  role: Role;
  /** how the request proved who it is */
  via: 'jwt' | 'api_key' | 'api_token';
  /** the JWT's id (null for API keys) */
  tokenId: string | null;
  /** the JWT's expiry (null for API keys) */
  tokenExpiresAt: string | null;
  apiKeyId: string | null;
  /** the API key's tier (null for JWTs): what its use is metered at */
  apiKeyTier: ApiKeyTier | null;
}
