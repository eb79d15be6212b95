/**
 * One sighting (stream `sighting-<sightingId>`, SPEC §2.6, §3, §4.7 rule 7):
 * an immutable record of the owner's phone seeing the peer's key. Its swipe
 * lives in the pair's stream (encounter-pair.ts); the sighting itself never
 * changes. It can be swiped until expires_at = sighted_at + the sighting
 * lifetime. Ids are made by the caller (`sight_` plus a random part).
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';
import type { EncounterLimits } from './encounter-limits';
import type { SightingEvent, SightingRecorded } from './encounter.events';

/** Not recorded yet, or recorded once (a sighting never changes). */
export type SightingState = { status: 'none' } | { status: 'recorded'; sighting: SightingRecorded['data'] };

export interface SightingCard {
  avatar_style: string;
  vibe_tags: string[];
  face_visible: boolean;
}

export type SightingCommand = {
  kind: 'record';
  sightingId: string;
  ownerUserId: string;
  peerUserId: string;
  peerPubkeyDigest: string;
  rssiPeak: number;
  dwellSec: number;
  lat: number | null;
  lng: number | null;
  /** the peer's card as shown to the owner */
  card: SightingCard;
  limits: EncounterLimits;
};

export const sightingDecider: Decider<SightingState, SightingCommand, SightingEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'SightingRecorded':
        return { status: 'recorded', sighting: { ...event.data, vibe_tags: [...event.data.vibe_tags] } };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'record': {
        if (command.ownerUserId === command.peerUserId) throw new DomainError('invalid', 'self-sighting rejected');
        if (state.status === 'recorded') return [];
        return [
          {
            type: 'SightingRecorded',
            data: {
              sighting_id: command.sightingId,
              owner_user_id: command.ownerUserId,
              peer_user_id: command.peerUserId,
              peer_pubkey_digest: command.peerPubkeyDigest,
              rssi_peak: command.rssiPeak,
              dwell_sec: command.dwellSec,
              lat: command.lat,
              lng: command.lng,
              sighted_at: now.toISOString(),
              expires_at: new Date(now.getTime() + command.limits.sightingExpiresSec * 1000).toISOString(),
              avatar_style: command.card.avatar_style,
              vibe_tags: [...command.card.vibe_tags],
              face_visible: command.card.face_visible,
            },
          },
        ];
      }
      default:
        return assertNever(command.kind);
    }
  },
};
