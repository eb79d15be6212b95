/**
 * `encounterProfiles`: one document per user (`_id` = user id) in
 * `encounter_profiles`, holding the discoverable preference of SPEC §2.6 and
 * the digest of the user's current rotating public key. It answers
 * "who is discoverable behind this pubkey?" (index on current_pubkey_digest)
 * and GET /encounter/discoverable.
 *
 * - DiscoverableEnabled / DiscoverableDisabled set the preference as the
 *   event states it (each event carries the whole profile and toggle window).
 * - PubkeyRegistered sets the current digest; a registration creates the
 *   preference with the SPEC defaults when absent (SPEC §4.7 rule 10).
 *   Events arrive in log order, so the later registration wins.
 *
 * Every update goes through applyOnce: a replay or redelivery changes nothing.
 * Fields a given event does not speak about are filled by $setOnInsert only,
 * never in the same update's $set (a path may appear in one operator only).
 */
import { DEFAULT_AVATAR_STYLE } from '../../aggregates/encounter/encounter-limits';
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type RecordedOf } from '../support/define-projection';

export const ENCOUNTER_PROFILES = 'encounter_profiles';

export interface EncounterProfileDoc extends Doc {
  user_id: string;
  enabled: boolean;
  enabled_at: string | null;
  expires_at: string | null;
  age_claim_18: boolean;
  face_visible: boolean;
  avatar_style: string;
  vibe_tags: string[];
  toggle_count_24h: number;
  toggle_window_start: string | null;
  last_toggle_at: string | null;
  current_pubkey_digest: string | null;
  pubkey_registered_at: string | null;
}

type PreferenceFields = Omit<EncounterProfileDoc, '_id' | 'user_id' | 'current_pubkey_digest' | 'pubkey_registered_at'>;

/** The preference of a user who never toggled (SPEC §2.6 defaults). */
export const DEFAULT_PREFERENCE: Readonly<PreferenceFields> = Object.freeze({
  enabled: false,
  enabled_at: null,
  expires_at: null,
  age_claim_18: false,
  face_visible: false,
  avatar_style: DEFAULT_AVATAR_STYLE,
  vibe_tags: [],
  toggle_count_24h: 0,
  toggle_window_start: null,
  last_toggle_at: null,
});

/** Filter of the discoverable lookup by the digest of a current pubkey (a server-computed hex digest). */
export function byCurrentPubkeyDigest(digest: string): { current_pubkey_digest: string } {
  return { current_pubkey_digest: String(digest) };
}

/** A toggle sets the preference as the event states it. */
function toggled(event: RecordedOf<'DiscoverableEnabled' | 'DiscoverableDisabled'>, writer: ProjectionWriter): void {
  const d = event.data;
  const set: Record<string, unknown> = {
    user_id: d.user_id,
    enabled: event.type === 'DiscoverableEnabled',
    expires_at: event.type === 'DiscoverableEnabled' ? event.data.expires_at : null,
    age_claim_18: d.age_claim_18,
    face_visible: d.face_visible,
    avatar_style: d.avatar_style,
    vibe_tags: d.vibe_tags,
    toggle_count_24h: d.toggle_count_24h,
    toggle_window_start: d.toggle_window_start,
    last_toggle_at: d.last_toggle_at,
  };
  const onInsert: Record<string, unknown> = { current_pubkey_digest: null, pubkey_registered_at: null };
  // enabled_at is when the user last enabled: a disable keeps it
  if (event.type === 'DiscoverableEnabled') set.enabled_at = event.data.enabled_at;
  else onInsert.enabled_at = null;
  applyOnce(writer, ENCOUNTER_PROFILES, d.user_id, event, { $set: set, $setOnInsert: onInsert });
}

export const encounterProfilesProjection = defineProjection({
  name: 'encounterProfiles',
  version: 1,
  collections: [ENCOUNTER_PROFILES],
  indexes: [{ collection: ENCOUNTER_PROFILES, spec: { keys: { current_pubkey_digest: 1 } } }],
  on: {
    DiscoverableEnabled: toggled,
    DiscoverableDisabled: toggled,
    PubkeyRegistered: (event, writer) =>
      applyOnce(writer, ENCOUNTER_PROFILES, event.data.user_id, event, {
        $set: { user_id: event.data.user_id, current_pubkey_digest: event.data.pubkey_digest, pubkey_registered_at: event.data.registered_at },
        $setOnInsert: { ...DEFAULT_PREFERENCE, vibe_tags: [] },
      }),
  },
});
