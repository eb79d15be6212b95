import { deciderKit } from '../../../test/support/decider-kit';
import { DEFAULT_ENCOUNTER_LIMITS } from './encounter-limits';
import type { SightingEvent } from './encounter.events';
import { sightingDecider, type SightingCommand } from './sighting';

const now = new Date('2026-06-01T10:00:00.000Z');
const { given } = deciderKit(sightingDecider, now);
const record = (fields: Partial<SightingCommand> = {}): SightingCommand => ({
  kind: 'record',
  sightingId: 'sight_1',
  ownerUserId: 'u1',
  peerUserId: 'u2',
  peerPubkeyDigest: 'd'.repeat(64),
  rssiPeak: -60,
  dwellSec: 30,
  lat: 52.5,
  lng: 13.4,
  card: { avatar_style: 'pixel', vibe_tags: ['hiking'], face_visible: false },
  limits: DEFAULT_ENCOUNTER_LIMITS,
  ...fields,
});
const recorded: SightingEvent = {
  type: 'SightingRecorded',
  data: {
    sighting_id: 'sight_1',
    owner_user_id: 'u1',
    peer_user_id: 'u2',
    peer_pubkey_digest: 'd'.repeat(64),
    rssi_peak: -60,
    dwell_sec: 30,
    lat: 52.5,
    lng: 13.4,
    sighted_at: now.toISOString(),
    expires_at: '2026-06-02T10:00:00.000Z',
    avatar_style: 'pixel',
    vibe_tags: ['hiking'],
    face_visible: false,
  },
};

describe('sighting', () => {
  it('given nothing, when recording, then SightingRecorded carries the card and expires after the sighting lifetime', () =>
    given().when(record()).then(recorded));

  it('given a configured lifetime of 60 s, when recording, then it expires 60 s later', () =>
    given()
      .when(record({ limits: { ...DEFAULT_ENCOUNTER_LIMITS, sightingExpiresSec: 60 } }))
      .then({ ...recorded, data: { ...recorded.data, expires_at: '2026-06-01T10:01:00.000Z' } }));

  it('given nothing, when recording without coordinates, then lat and lng are null', () =>
    given()
      .when(record({ lat: null, lng: null }))
      .then({ ...recorded, data: { ...recorded.data, lat: null, lng: null } }));

  it('given nothing, when the peer is the owner, then 400 self-sighting rejected', () =>
    given().when(record({ peerUserId: 'u1' })).thenRefused('invalid', 'self-sighting rejected'));

  it('given a recorded sighting, when recording it again, then nothing new is recorded (idempotent)', () =>
    given(recorded).when(record(), new Date('2026-06-01T11:00:00.000Z')).thenNothing());

  it('given a recorded sighting, then the state holds it', () => {
    expect(given(recorded).state()).toEqual({ status: 'recorded', sighting: recorded.data });
  });
});
