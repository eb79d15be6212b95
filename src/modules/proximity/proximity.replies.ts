/** Reply schemas of the proximity routes (social-routes §13) for the OpenAPI document. */
import { bool, int, list, obj, oneOf, orNull, str } from '../common/openapi';
import { ENCOUNTER_CONTEXTS } from '../../aggregates/proximity/social-encounter';

export const ENCOUNTER = obj({
  id: str(),
  user_a_id: str({ description: 'the pair, sorted' }),
  user_b_id: str(),
  context_type: oneOf(ENCOUNTER_CONTEXTS),
  context_id: str(),
  location_label: orNull(str({ description: 'HTML-escaped' })),
  encounter_count: int(),
  bond_level: int({ minimum: 0, maximum: 10 }),
  first_at: str({ format: 'date-time' }),
  latest_at: str({ format: 'date-time' }),
  is_mutual_aware: bool(),
});
export const USER_CARD = obj({ id: str(), username: str(), display_name: str({ description: 'HTML-escaped' }), avatar_url: orNull(str()), user_type: str() });
export const ENCOUNTER_WITH_OTHER = { ...ENCOUNTER, properties: { ...(ENCOUNTER.properties as object), other_user: orNull(USER_CARD) } };
export const ENCOUNTER_SUGGESTION = obj({
  user_id: str(),
  username: str(),
  display_name: str(),
  avatar_url: orNull(str()),
  user_type: str(),
  total_encounters: int(),
  shared_contexts: int(),
  max_bond: int(),
});
export const ENCOUNTER_BOND = obj({
  user_id: str(),
  username: str(),
  display_name: str(),
  avatar_url: orNull(str()),
  bond_level: int(),
  total_encounters: int(),
  latest_at: str({ format: 'date-time' }),
});
export const ENCOUNTER_LIST = list(ENCOUNTER);
export const MATCH_VIEW = obj(
  {
    id: str(),
    status: oneOf(['pending', 'revealed_a', 'revealed_b', 'matched', 'expired']),
    distance_bucket: oneOf(['~50m away', '~100m away', '~200m away', '~500m away']),
    detected_at: str({ format: 'date-time' }),
    expires_at: str({ format: 'date-time' }),
    user_a: obj({ id: str() }, [], { additionalProperties: true, description: 'once matched' }),
    user_b: obj({ id: str() }, [], { additionalProperties: true, description: 'once matched' }),
    you_revealed: bool({ description: 'before matched' }),
    other_revealed: bool({ description: 'before matched' }),
  },
  ['user_a', 'user_b', 'you_revealed', 'other_revealed'],
);
