import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import {
  APPROVE_BODY_SCHEMA,
  approveRequest,
  CONSENT_BODY_SCHEMA,
  consentRequest,
  DECLINE_BODY_SCHEMA,
  declineRequest,
  DISCOVERABLE_BODY_SCHEMA,
  discoverableRequest,
  MATCH_ID_BODY_SCHEMA,
  matchIdRequest,
  REGISTER_PUBKEY_BODY_SCHEMA,
  registerPubkeyRequest,
  SIGHTING_BODY_SCHEMA,
  sightingRequest,
  SWIPE_BODY_SCHEMA,
  swipeRequest,
} from './encounter.requests';

const keys = ['0123456789ABCDEF', ' 0123456789abcdef ', '0123456789abcde', 'f'.repeat(128), 'f'.repeat(129), '0123456789abcdeg'];

describe('the encounter routes’ body schemas agree with their readers', () => {
  it('given POST discoverable bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(DISCOVERABLE_BODY_SCHEMA, discoverableRequest, {
      valid: { enabled: true, ttl_sec: 600, age_claim_18: true },
      candidates: { ttl_sec: [' 42 ', '4.2', 'NaN', -5], vibe_tags: [['a', 'b'], ['a', 1], 'a'] },
    });
  });

  it('given POST sighting bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(SIGHTING_BODY_SCHEMA, sightingRequest, {
      valid: { peer_pubkey: '0123456789abcdef', rssi_peak: -60, dwell_sec: 30 },
      candidates: {
        peer_pubkey: keys,
        lat: [90, -90, 90.1, -90.1, 45.5],
        lng: [180, -180, 180.1, -179.9],
        rssi_peak: ['-128', '127', ' 99 ', '128', '-129', 127.9, -128.5, 128, -129],
        dwell_sec: ['86400', '86401', '-5', ' 7 ', 86_400.5, 86_401, -5],
      },
    });
  });

  it('given POST swipe bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(SWIPE_BODY_SCHEMA, swipeRequest, {
      valid: { sighting_id: 's1', decision: 'like' },
      candidates: { decision: ['LIKE', ' Dislike ', 'dislike', 'likes', 'love'] },
    });
  });

  it('given icebreaker bodies, then each reader accepts exactly what its schema accepts', () => {
    expectReaderAgreesWithSchema(MATCH_ID_BODY_SCHEMA, matchIdRequest, { valid: { match_id: 'm1' } });
    expectReaderAgreesWithSchema(APPROVE_BODY_SCHEMA, approveRequest, { valid: { match_id: 'm1', text: 'hi there' } });
    expectReaderAgreesWithSchema(DECLINE_BODY_SCHEMA, declineRequest, { valid: { match_id: 'm1' } });
  });

  it('given POST register-pubkey bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(REGISTER_PUBKEY_BODY_SCHEMA, registerPubkeyRequest, { valid: { pubkey: '0123456789abcdef' }, candidates: { pubkey: keys } });
  });

  it('given PUT consent bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(CONSENT_BODY_SCHEMA, consentRequest, {
      valid: { consent: true },
      candidates: {
        consent_type: ['cloud_capability', 'Cloud', '_x', 'a'.repeat(64), 'a'.repeat(65)],
        scope: ['encounter_icebreaker', '**', 'a'.repeat(65)],
      },
    });
  });
});
