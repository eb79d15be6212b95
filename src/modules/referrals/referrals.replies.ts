/** The JSON Schemas of the referral replies (social-routes §14), for the OpenAPI document. */
import { bool, int, obj, oneOf, orNull, str } from '../common/openapi';

export const REFERRAL_CODE = obj({ user_id: str(), code: str({ pattern: '^[A-Z0-9]{8}$' }), uses: int(), max_uses: int(), is_active: bool() });

export const REFERRAL = obj({
  id: str(),
  referrer_id: str(),
  referred_id: str(),
  referral_code: str(),
  status: oneOf(['pending', 'activated']),
  created_at: str({ format: 'date-time' }),
  activated_at: orNull(str({ format: 'date-time' })),
});

export const REFERRAL_STATS = obj({ code: orNull(str()), total_referrals: int(), activated: int(), pending: int() });

export const SHARE_LINK = obj({ link: str(), referral_code: str() });
