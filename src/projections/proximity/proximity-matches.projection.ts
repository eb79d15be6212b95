/** `proximity_matches`: one document per proximity match (social-routes §13) and its reveal status, found by either user; no coordinates, only the distance bucket. */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const PROXIMITY_MATCHES = 'proximity_matches';

export interface ProximityMatchDoc extends Doc {
  user_a_id: string;
  user_b_id: string;
  distance_bucket: string;
  detected_at: string;
  expires_at: string;
  /** pending, revealed_a, revealed_b, matched; `expired` is read from expires_at */
  status: string;
  revealed_a: boolean;
  revealed_b: boolean;
}

export const proximityMatchesProjection = defineProjection({
  name: 'proximity_matches',
  version: 1,
  collections: [PROXIMITY_MATCHES],
  indexes: [
    { collection: PROXIMITY_MATCHES, spec: { keys: { user_a_id: 1, expires_at: -1 } } },
    { collection: PROXIMITY_MATCHES, spec: { keys: { user_b_id: 1, expires_at: -1 } } },
  ],
  on: {
    ProximityMatched: (event, writer) => {
      const { match_id, user_a_id, user_b_id, distance_bucket, detected_at, expires_at } = event.data;
      applyOnce(writer, PROXIMITY_MATCHES, match_id, event, {
        $set: { user_a_id, user_b_id, distance_bucket, detected_at, expires_at, status: 'pending', revealed_a: false, revealed_b: false },
      });
    },
    ProximityRevealed: (event, writer) => {
      const { match_id, user_a_id, by, status } = event.data;
      applyOnce(writer, PROXIMITY_MATCHES, match_id, event, { $set: { status, [by === user_a_id ? 'revealed_a' : 'revealed_b']: true } }, { upsert: false });
    },
  },
});
