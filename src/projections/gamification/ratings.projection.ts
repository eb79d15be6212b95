/**
 * `ratings`: one document per rating (social-routes §15), updated in place
 * when the rating is revised; `trust`: per rated user and dimension, the sums
 * Σ weight·score and Σ weight of the trust formula, and the number of
 * ratings received. A revision moves the sums by the difference between the
 * new and the replaced score and weight, both recorded in the event, so the
 * trust of a rebuild equals the live one.
 */
import type { RatingRecord } from '../../aggregates/gamification/rating';
import type { Dimension } from '../../aggregates/gamification/trust';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const RATINGS = 'ratings';
export const TRUST = 'trust';

/** A rating as its key, its last score and the weight that score was given with. */
export type RatingDoc = Doc & RatingRecord;

/** `<dimension>_weighted` = Σ weight·score, `<dimension>_weight` = Σ weight, `<dimension>_count`, `total_ratings`. */
export type TrustDoc = Doc & { user_id: string; total_ratings: number } & Partial<Record<`${Dimension}_${'weighted' | 'weight' | 'count'}`, number>>;

export const ratingsProjection = defineProjection({
  name: 'ratings',
  version: 1,
  collections: [RATINGS, TRUST],
  indexes: [
    { collection: RATINGS, spec: { keys: { rated_id: 1, updated_at: -1 } } },
    { collection: RATINGS, spec: { keys: { rater_id: 1, updated_at: -1 } } },
    { collection: RATINGS, spec: { keys: { context_type: 1, context_id: 1, updated_at: -1 } } },
  ],
  on: {
    RatingGiven: (event, writer) => {
      const d = event.data;
      applyOnce(writer, RATINGS, d.rating_id, event, {
        $set: {
          rater_id: d.rater_id,
          rated_id: d.rated_id,
          context_type: d.context_type,
          context_id: d.context_id,
          dimension: d.dimension,
          score: d.score,
          comment: d.comment,
          weight: d.weight,
          created_at: d.created_at,
          updated_at: d.created_at,
        },
      });
      applyOnce(writer, TRUST, d.rated_id, event, {
        $set: { user_id: d.rated_id },
        $inc: { [`${d.dimension}_weighted`]: d.weight * d.score, [`${d.dimension}_weight`]: d.weight, [`${d.dimension}_count`]: 1, total_ratings: 1 },
      });
    },
    RatingRevised: (event, writer) => {
      const d = event.data;
      applyOnce(writer, RATINGS, d.rating_id, event, { $set: { score: d.score, comment: d.comment, weight: d.weight, updated_at: d.updated_at } }, { upsert: false });
      applyOnce(
        writer,
        TRUST,
        d.rated_id,
        event,
        { $inc: { [`${d.dimension}_weighted`]: d.weight * d.score - d.previous_weight * d.previous_score, [`${d.dimension}_weight`]: d.weight - d.previous_weight } },
        { upsert: false },
      );
    },
  },
});
