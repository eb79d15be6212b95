/** Reply schemas of the encounter and consent routes for the OpenAPI document (the `data` of `{success: true, data}`). */
import { ENCOUNTER_TOPICS } from '../../aggregates/encounter/encounter-messages';
import { bool, int, list, num, obj, oneOf, orNull, str } from '../common/openapi';

const time = str({ format: 'date-time' });

export const DISCOVERABLE_RECEIPT = obj({ enabled: bool(), expires_at: orNull(time), remaining_sec: int() });
export const DISCOVERABLE_VIEW = obj({
  enabled: bool(),
  expires_at: orNull(time),
  remaining_sec: int(),
  toggle_count_24h: int(),
  age_claim_18: bool(),
  face_visible: bool(),
  avatar_style: str(),
  vibe_tags: list(str()),
});
export const PUBKEY_RECEIPT = obj({ registered_at: int({ description: 'epoch seconds' }) });
export const SIGHTING_CARD = obj({ sighting_id: str(), peer_anon_id: str(), avatar_style: str(), vibe_tags: list(str()), face_visible: bool(), expires_at: time });
export const SWIPE_RECEIPT = obj({ sighting_id: str(), decision: oneOf(['like', 'dislike']), match_id: orNull(str({ description: 'set when the like is mutual' })) });
const MATCH = obj({
  id: str(),
  user_a: str(),
  user_b: str(),
  lat: orNull(num()),
  lng: orNull(num()),
  matched_at: orNull(int({ description: 'epoch seconds of the first binding' })),
  icebreaker_a_status: str(),
  icebreaker_b_status: str(),
  map_pin_visible: bool(),
});
export const MATCHES = obj({ matches: list(MATCH), count: int() });
export const MAP_PINS = obj({ pins: list(obj({ match_id: str(), lat: num(), lng: num(), matched_at: orNull(int()) })), count: int() });
export const ICEBREAKER_DRAFT = obj({
  draft: str(),
  rationale: str(),
  alt_drafts: list(str(), { minItems: 2, maxItems: 2 }),
  length: int(),
  shared_tag: orNull(str()),
  source: { const: 'template' },
});
export const ICEBREAKER_SENT = obj({ match_id: str(), status: { const: 'sent' } });
export const ICEBREAKER_DECLINED = obj({ match_id: str(), status: { const: 'declined' } });
export const TOPICS = obj({ topics: obj(Object.fromEntries(Object.entries(ENCOUNTER_TOPICS).map(([name, topic]) => [name, { const: topic }]))) });
export const CONSENTS = obj(
  {
    cloud_data_consent: bool({ description: 'whether a cloud-drafting consent is active' }),
    consent_type: str(),
    scope: str(),
    consents: list(obj({ consent_type: str(), scope: str(), granted_at: time })),
  },
  ['consent_type', 'scope'],
);
