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

const MISSED_CONNECTION_FIELDS = {
  id: str(),
  user_id: str({ description: 'the poster' }),
  location_name: str({ description: 'HTML-escaped' }),
  description: str({ description: 'HTML-escaped' }),
  was_at: str({ format: 'date-time' }),
  is_active: bool(),
  response_count: int(),
  created_at: str({ format: 'date-time' }),
  expires_at: str({ format: 'date-time', description: '7 days after creation' }),
};
/** A missed connection; never its coordinates. */
export const MISSED_CONNECTION = obj(MISSED_CONNECTION_FIELDS);
export const NEARBY_MISSED_CONNECTION = obj({ ...MISSED_CONNECTION_FIELDS, distance_label: str({ description: '`< 100m`, `< 500m`, `< 1km` or `~<N>km`' }) });
const PERSON_CARD = obj({ id: str(), username: str(), display_name: str({ description: 'HTML-escaped' }), avatar_url: orNull(str()) });
const MISSED_RESPONSE_FIELDS = {
  id: str(),
  missed_connection_id: str(),
  responder_id: str(),
  message: str({ description: 'HTML-escaped' }),
  status: oneOf(['pending', 'accepted']),
  created_at: str({ format: 'date-time' }),
};
export const MISSED_RESPONSE = obj(MISSED_RESPONSE_FIELDS);
export const MISSED_CONNECTION_DETAIL = obj({
  ...MISSED_CONNECTION_FIELDS,
  user: orNull(PERSON_CARD),
  responses: list(obj({ ...MISSED_RESPONSE_FIELDS, responder: orNull(PERSON_CARD) })),
  is_owner: bool(),
});
export const LOCATION_SUGGESTION = obj({ name: str({ description: 'HTML-escaped' }), count: int() });
