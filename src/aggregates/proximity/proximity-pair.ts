/**
 * The proximity matches of one pair (social-routes §13), stream
 * `proximityPair-<a>:<b>` (sorted): two users seen within 100 m of each
 * other become a match, at most one per pair per 4 h, whichever of them
 * pinged; concurrent pings of the pair serialize here, so they make one match.
 * A match lives 4 h. The reveal flow runs on the pair's latest match:
 * pending → revealed_a / revealed_b → matched (both revealed; then the pair
 * records an encounter, see encounter-recording.saga.ts).
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import { distanceBucket } from './geo';
import { encounterPair } from './social-encounter';

export const MATCH_RADIUS_M = 100;
export const MATCH_COOLDOWN_MS = 4 * 3600_000;
export const MATCH_LIFETIME_MS = 4 * 3600_000;

export const MATCH_NOT_FOUND = 'Match not found or expired';
export const NOT_YOUR_MATCH = 'Not your match';
export const ALREADY_MATCHED = 'Already matched';
export const ALREADY_REVEALED = 'Already revealed';

export type RevealStatus = 'revealed_a' | 'revealed_b' | 'matched';

export type ProximityPairEvent =
  | {
      type: 'ProximityMatched';
      data: { match_id: string; user_a_id: string; user_b_id: string; distance_bucket: string; detected_at: string; expires_at: string };
    }
  | { type: 'ProximityRevealed'; data: { match_id: string; user_a_id: string; user_b_id: string; by: string; status: RevealStatus; at: string } };

export interface PairMatch {
  matchId: string;
  userA: string;
  userB: string;
  detectedAt: string;
  expiresAt: string;
  revealedA: boolean;
  revealedB: boolean;
}

export interface ProximityPairState {
  latest: PairMatch | null;
}

export type ProximityPairCommand =
  | { kind: 'detect'; userIds: [string, string]; distanceMeters: number; newMatchId: string }
  | { kind: 'reveal'; matchId: string; callerId: string };

export const proximityPairStreamId = (one: string, other: string): string => {
  const [a, b] = encounterPair(one, other);
  return `proximityPair-${a}:${b}`;
};

function reveal(state: ProximityPairState, command: Extract<ProximityPairCommand, { kind: 'reveal' }>, now: Date): ProximityPairEvent[] {
  const match = state.latest;
  if (!match || match.matchId !== command.matchId) throw new DomainError('invalid', MATCH_NOT_FOUND);
  const matched = match.revealedA && match.revealedB;
  if (!matched && now.getTime() >= Date.parse(match.expiresAt)) throw new DomainError('invalid', MATCH_NOT_FOUND);
  const side = command.callerId === match.userA ? 'a' : command.callerId === match.userB ? 'b' : null;
  if (!side) throw new DomainError('invalid', NOT_YOUR_MATCH);
  if (matched) throw new DomainError('invalid', ALREADY_MATCHED);
  if (side === 'a' ? match.revealedA : match.revealedB) throw new DomainError('invalid', ALREADY_REVEALED);
  const otherRevealed = side === 'a' ? match.revealedB : match.revealedA;
  const status: RevealStatus = otherRevealed ? 'matched' : side === 'a' ? 'revealed_a' : 'revealed_b';
  return [
    {
      type: 'ProximityRevealed',
      data: { match_id: match.matchId, user_a_id: match.userA, user_b_id: match.userB, by: command.callerId, status, at: now.toISOString() },
    },
  ];
}

export const proximityPairDecider: Decider<ProximityPairState, ProximityPairCommand, ProximityPairEvent> = {
  initialState: { latest: null },
  evolve(state, event) {
    switch (event.type) {
      case 'ProximityMatched': {
        const d = event.data;
        return {
          latest: { matchId: d.match_id, userA: d.user_a_id, userB: d.user_b_id, detectedAt: d.detected_at, expiresAt: d.expires_at, revealedA: false, revealedB: false },
        };
      }
      case 'ProximityRevealed':
        if (!state.latest || state.latest.matchId !== event.data.match_id) return state;
        return {
          latest: {
            ...state.latest,
            revealedA: state.latest.revealedA || event.data.by === state.latest.userA,
            revealedB: state.latest.revealedB || event.data.by === state.latest.userB,
          },
        };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'detect': {
        if (command.distanceMeters > MATCH_RADIUS_M) return [];
        if (state.latest && now.getTime() - Date.parse(state.latest.detectedAt) < MATCH_COOLDOWN_MS) return [];
        const [a, b] = encounterPair(...command.userIds);
        if (a === b) return [];
        return [
          {
            type: 'ProximityMatched',
            data: {
              match_id: command.newMatchId,
              user_a_id: a,
              user_b_id: b,
              distance_bucket: distanceBucket(command.distanceMeters),
              detected_at: now.toISOString(),
              expires_at: new Date(now.getTime() + MATCH_LIFETIME_MS).toISOString(),
            },
          },
        ];
      }
      case 'reveal':
        return reveal(state, command, now);
      default:
        return assertNever(command);
    }
  },
};
