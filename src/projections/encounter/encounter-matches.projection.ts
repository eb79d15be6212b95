/**
 * `encounterMatches`: the durable match rows and each user's view of them.
 *
 * - `encounter_matches`: one document per match (`_id` = match id) with the
 *   match record of SPEC §2.6, payload included. MatchBound creates it with
 *   both icebreaker sides pending and refreshes it on a re-bind, keeping the
 *   sides (a re-bind never resets an opener); IcebreakerSent / Declined set
 *   both sides as the event states them.
 * - `encounter_match_views`: one document per (user, match), `_id`
 *   `${userId}:${matchId}`, for each of the two users: the match view of
 *   SPEC §2.6 plus user_id, match_id, latest_at. GET /encounter/matches and
 *   /encounter/map-pins read only these (see matchesOfUser, mapPinsOfUser).
 *
 * Privacy (SPEC §4.7 rule 1): only MatchBound and icebreaker events feed this
 * read model. Swipes never reach any read model, so a one-sided like cannot
 * be observed. Every update goes through applyOnce (replay-safe).
 */
import { matchViewOf, type MatchView } from '../../aggregates/encounter/encounter-messages';
import type { Icebreaker, IcebreakerStatus } from '../../aggregates/encounter/encounter.events';
import { ERASED_TEXT } from '../../aggregates/personal-data';
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc, Filter, FindOptions } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type RecordedOf } from '../support/define-projection';

export const ENCOUNTER_MATCHES = 'encounter_matches';
export const ENCOUNTER_MATCH_VIEWS = 'encounter_match_views';

export interface EncounterMatchDoc extends Doc {
  user_a_id: string;
  user_b_id: string;
  context_type: 'ble';
  context_id: string;
  encounter_count: number;
  bond_level: number;
  is_mutual_aware: boolean;
  lat: number | null;
  lng: number | null;
  first_at: string;
  latest_at: string;
  payload: { icebreaker_a: Icebreaker; icebreaker_b: Icebreaker; map_pin_visible: boolean };
}

export interface EncounterMatchViewDoc extends Doc, MatchView {
  user_id: string;
  match_id: string;
  latest_at: string;
}

export interface MapPin {
  match_id: string;
  lat: number;
  lng: number;
  matched_at: number | null;
}

export function matchViewId(userId: string, matchId: string): string {
  return `${userId}:${matchId}`;
}

function untouchedSide(status: IcebreakerStatus): Icebreaker {
  return { status, text: null, sent_at: null, decline_reason: null };
}

/** Query of a user's matches, latest first (index {user_id: 1, latest_at: -1}). */
export function matchesOfUser(userId: string): { filter: Filter; options: FindOptions } {
  return { filter: { user_id: String(userId) }, options: { sort: { latest_at: -1, match_id: 1 } } };
}

/** Query of a user's map pins: matches with coordinates and map_pin_visible true. */
export function mapPinsOfUser(userId: string): { filter: Filter; options: FindOptions } {
  return {
    filter: { user_id: String(userId), lat: { $ne: null }, lng: { $ne: null }, map_pin_visible: true },
    options: { sort: { latest_at: -1, match_id: 1 } },
  };
}

/** The client's match view of a view document (internal fields dropped). */
export function toMatchView(doc: EncounterMatchViewDoc): MatchView {
  return {
    id: doc.id,
    user_a: doc.user_a,
    user_b: doc.user_b,
    lat: doc.lat,
    lng: doc.lng,
    matched_at: doc.matched_at,
    icebreaker_a_status: doc.icebreaker_a_status ?? 'pending',
    icebreaker_b_status: doc.icebreaker_b_status ?? 'pending',
    map_pin_visible: doc.map_pin_visible,
  };
}

export function toMapPin(doc: EncounterMatchViewDoc): MapPin {
  return { match_id: doc.match_id, lat: doc.lat as number, lng: doc.lng as number, matched_at: doc.matched_at };
}

/** An opener sent or declined: both sides as the event states them. */
function icebreakerChanged(event: RecordedOf<'IcebreakerSent' | 'IcebreakerDeclined'>, writer: ProjectionWriter): void {
  const d = event.data;
  // no upsert: a match row exists before any opener (log order); never invent a half row
  const noUpsert = { upsert: false };
  applyOnce(
    writer,
    ENCOUNTER_MATCHES,
    d.match_id,
    event,
    { $set: { 'payload.icebreaker_a': d.icebreaker_a, 'payload.icebreaker_b': d.icebreaker_b } },
    noUpsert,
  );
  for (const userId of [d.user_a_id, d.user_b_id]) {
    applyOnce(
      writer,
      ENCOUNTER_MATCH_VIEWS,
      matchViewId(userId, d.match_id),
      event,
      { $set: { icebreaker_a_status: d.icebreaker_a.status, icebreaker_b_status: d.icebreaker_b.status } },
      noUpsert,
    );
  }
}

/**
 * An erased user's matches lose their place (sealed for both users) and the user's own icebreaker text, as
 * the log reads once their key is gone (personal-data.ts).
 */
function eraseUser(userId: string, writer: ProjectionWriter): void {
  for (const side of ['a', 'b'] as const) {
    writer.write(ENCOUNTER_MATCHES, { updateMany: { filter: { [`user_${side}_id`]: userId }, update: { $set: { lat: null, lng: null } } } });
    const text = `payload.icebreaker_${side}.text`;
    writer.write(ENCOUNTER_MATCHES, { updateMany: { filter: { [`user_${side}_id`]: userId, [text]: { $ne: null } }, update: { $set: { [text]: ERASED_TEXT } } } });
    writer.write(ENCOUNTER_MATCH_VIEWS, { updateMany: { filter: { [`user_${side}`]: userId }, update: { $set: { lat: null, lng: null } } } });
  }
}

export const encounterMatchesProjection = defineProjection({
  name: 'encounterMatches',
  version: 2,
  collections: [ENCOUNTER_MATCHES, ENCOUNTER_MATCH_VIEWS],
  indexes: [{ collection: ENCOUNTER_MATCH_VIEWS, spec: { keys: { user_id: 1, latest_at: -1 } } }],
  on: {
    MatchBound: (event, writer) => {
      const d = event.data;
      applyOnce(writer, ENCOUNTER_MATCHES, d.match_id, event, {
        $set: {
          user_a_id: d.user_a_id,
          user_b_id: d.user_b_id,
          context_type: d.context_type,
          context_id: d.context_id,
          encounter_count: d.encounter_count,
          bond_level: d.bond_level,
          is_mutual_aware: d.is_mutual_aware,
          lat: d.lat,
          lng: d.lng,
          first_at: d.first_at,
          latest_at: d.latest_at,
          'payload.map_pin_visible': d.map_pin_visible,
        },
        $setOnInsert: {
          'payload.icebreaker_a': untouchedSide(d.icebreaker_a_status),
          'payload.icebreaker_b': untouchedSide(d.icebreaker_b_status),
        },
      });
      const view = matchViewOf(d);
      for (const userId of [d.user_a_id, d.user_b_id]) {
        applyOnce(writer, ENCOUNTER_MATCH_VIEWS, matchViewId(userId, d.match_id), event, {
          $set: { user_id: userId, match_id: d.match_id, latest_at: d.latest_at, ...view },
        });
      }
    },
    IcebreakerSent: icebreakerChanged,
    IcebreakerDeclined: icebreakerChanged,
    UserAnonymized: (event, writer) => eraseUser(event.data.user_id, writer),
  },
});
