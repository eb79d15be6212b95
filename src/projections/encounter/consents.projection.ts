/**
 * `encounterConsents`: the consents users gave (SPEC §4.4 consent routes,
 * §4.7 rule 11), one document per (user, consent type, scope) in
 * `encounter_consents`, `_id` `${userId}:${consentType}:${scope}` (neither
 * name can hold a `:`), active or not. GET /users/<id>/consent/cloud-data and
 * the central node's drafting check read the active ones (activeConsentsOf).
 *
 * Every update goes through applyOnce: a replay or redelivery changes nothing,
 * and an older event never overwrites a newer one.
 */
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc, Filter, FindOptions } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type RecordedOf } from '../support/define-projection';

export const ENCOUNTER_CONSENTS = 'encounter_consents';

export interface EncounterConsentDoc extends Doc {
  user_id: string;
  consent_type: string;
  scope: string;
  active: boolean;
  /** when the consent was last granted (a revocation keeps it) */
  granted_at: string;
}

export function consentId(userId: string, consentType: string, scope: string): string {
  return `${userId}:${consentType}:${scope}`;
}

/** Query of a user's active consents, by type, then scope (index {user_id, active, consent_type, scope}). */
export function activeConsentsOf(userId: string): { filter: Filter; options: FindOptions } {
  return {
    filter: { user_id: String(userId), active: true },
    options: { sort: { consent_type: 1, scope: 1 } },
  };
}

/** A revocation always follows a grant in its stream: it only turns the document off. */
function consentChanged(event: RecordedOf<'ConsentGranted' | 'ConsentRevoked'>, writer: ProjectionWriter): void {
  const { user_id, consent_type, scope } = event.data;
  const set: Record<string, unknown> =
    event.type === 'ConsentGranted' ? { user_id, consent_type, scope, active: true, granted_at: event.data.granted_at } : { active: false };
  applyOnce(writer, ENCOUNTER_CONSENTS, consentId(user_id, consent_type, scope), event, { $set: set }, { upsert: event.type === 'ConsentGranted' });
}

export const encounterConsentsProjection = defineProjection({
  name: 'encounterConsents',
  version: 1,
  collections: [ENCOUNTER_CONSENTS],
  indexes: [{ collection: ENCOUNTER_CONSENTS, spec: { keys: { user_id: 1, active: 1, consent_type: 1, scope: 1 } } }],
  on: {
    ConsentGranted: consentChanged,
    ConsentRevoked: consentChanged,
  },
});
