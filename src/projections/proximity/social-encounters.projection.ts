/**
 * `social_encounters`: one document per encounter row (social-routes §13),
 * by encounter id: the pair (sorted), its context, count, bond level, first
 * and latest time, and whether it was acknowledged. Each user's rows are
 * found through the two indexed sides of the pair.
 */
import type { EncounterRow } from '../../aggregates/proximity/social-encounter';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const SOCIAL_ENCOUNTERS = 'social_encounters';

/** `is_mutual_aware` is absent until the first acknowledgement */
export type SocialEncounterDoc = Doc & Omit<EncounterRow, 'is_mutual_aware'> & { is_mutual_aware?: boolean };

export const socialEncountersProjection = defineProjection({
  name: 'social_encounters',
  version: 1,
  collections: [SOCIAL_ENCOUNTERS],
  indexes: [
    { collection: SOCIAL_ENCOUNTERS, spec: { keys: { user_a_id: 1, latest_at: -1 } } },
    { collection: SOCIAL_ENCOUNTERS, spec: { keys: { user_b_id: 1, latest_at: -1 } } },
  ],
  on: {
    SocialEncounterRecorded: (event, writer) => {
      const { source: _source, ...row } = event.data;
      applyOnce(writer, SOCIAL_ENCOUNTERS, row.encounter_id, event, { $set: row });
    },
    SocialEncounterAcknowledged: (event, writer) =>
      applyOnce(writer, SOCIAL_ENCOUNTERS, event.data.encounter_id, event, { $set: { is_mutual_aware: true } }, { upsert: false }),
  },
});
