/**
 * The proximity matches of one pair (social-routes §13), stream
 * `proximityPair-<a>:<b>` (sorted): two users seen within 100 m of each
 * other become a match, at most one per pair per 4 h, whichever of them
 * pinged; concurrent pings of the pair serialize here, so they make one match.
 * A match lives 4 h.
 */
import { assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import { distanceBucket } from './geo';
import { encounterPair } from './social-encounter';

export const MATCH_RADIUS_M = 100;
export const MATCH_COOLDOWN_MS = 4 * 3600_000;
export const MATCH_LIFETIME_MS = 4 * 3600_000;

export type ProximityPairEvent = {
  type: 'ProximityMatched';
  data: { match_id: string; user_a_id: string; user_b_id: string; distance_bucket: string; detected_at: string; expires_at: string };
};

export interface ProximityPairState {
  latest: { matchId: string; detectedAt: string } | null;
}

export type ProximityPairCommand = { kind: 'detect'; userIds: [string, string]; distanceMeters: number; newMatchId: string };

export const proximityPairStreamId = (one: string, other: string): string => {
  const [a, b] = encounterPair(one, other);
  return `proximityPair-${a}:${b}`;
};

export const proximityPairDecider: Decider<ProximityPairState, ProximityPairCommand, ProximityPairEvent> = {
  initialState: { latest: null },
  evolve(_state, event) {
    switch (event.type) {
      case 'ProximityMatched':
        return { latest: { matchId: event.data.match_id, detectedAt: event.data.detected_at } };
      default:
        return assertNever(event.type);
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
      default:
        return assertNever(command.kind);
    }
  },
};
