import { DomainError } from '../shared/domain-error';
import { DEFAULT_ENCOUNTER_LIMITS } from './encounter-limits';
import type { SightingEvent } from './encounter.events';
import { sightingDecider, type SightingCommand } from './sighting';

const now = new Date('2026-06-01T10:00:00.000Z');
const given = (...events: SightingEvent[]) => events.reduce(sightingDecider.evolve, sightingDecider.initialState);
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
  it('given nothing, when recording, then SightingRecorded carries the card and expires after the sighting lifetime', () => {
    expect(sightingDecider.decide(record(), given(), now)).toEqual([recorded]);
  });

  it('given a configured lifetime of 60 s, when recording, then it expires 60 s later', () => {
    const [event] = sightingDecider.decide(record({ limits: { ...DEFAULT_ENCOUNTER_LIMITS, sightingExpiresSec: 60 } }), given(), now);
    expect(event.data.expires_at).toBe('2026-06-01T10:01:00.000Z');
  });

  it('given nothing, when recording without coordinates, then lat and lng are null', () => {
    const [event] = sightingDecider.decide(record({ lat: null, lng: null }), given(), now);
    expect(event.data).toMatchObject({ lat: null, lng: null });
  });

  it('given nothing, when the peer is the owner, then 400 self-sighting rejected', () => {
    let error: unknown;
    try {
      sightingDecider.decide(record({ peerUserId: 'u1' }), given(), now);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'invalid', message: 'self-sighting rejected' });
  });

  it('given a recorded sighting, when recording it again, then nothing new is recorded (idempotent)', () => {
    expect(sightingDecider.decide(record(), given(recorded), new Date('2026-06-01T11:00:00.000Z'))).toEqual([]);
  });

  it('given a recorded sighting, when evolving, then the state holds it', () => {
    expect(given(recorded).recorded).toEqual(recorded.data);
  });
});
