/**
 * `missed_connections` (one document per post, social-routes §13) and
 * `missed_connection_responses` (one per response). A post keeps its geohash
 * cell at precisions 6 down to 2 (`cell6` … `cell2`), each indexed: a radius
 * lookup reads the cells of the precision that covers the radius
 * (geo.ts `coveringPrecision`) by indexed equality, never every post. The exact
 * coordinates stay here for distances; no reply carries them. Turning
 * location sharing off, or erasing the account, blanks the coordinates and
 * cells of the user's posts made until then (as `location_pings` does with the
 * stored ping), so they drop out of every radius lookup; they stay readable by
 * id and in the poster's own list.
 */
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import { ERASED_TEXT } from '../../aggregates/personal-data';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const MISSED_CONNECTIONS = 'missed_connections';
export const MISSED_CONNECTION_RESPONSES = 'missed_connection_responses';

/** The indexed cell fields, finest first: `cell<precision>`. */
export const CELL_PRECISIONS = [6, 5, 4, 3, 2] as const;
export type CellField = `cell${(typeof CELL_PRECISIONS)[number]}`;
export const cellField = (precision: number): CellField => `cell${Math.max(2, Math.min(6, precision))}` as CellField;

export interface MissedConnectionDoc extends Doc, Partial<Record<CellField, string | null>> {
  user_id: string;
  lat: number | null;
  lon: number | null;
  location_name: string;
  description: string;
  was_at: string;
  is_active: boolean;
  response_count: number;
  created_at: string;
  expires_at: string;
}

export interface MissedConnectionResponseDoc extends Doc {
  missed_connection_id: string;
  responder_id: string;
  message: string;
  status: string;
  created_at: string;
}

const cells = (hash6: string | null): Record<CellField, string | null> =>
  Object.fromEntries(CELL_PRECISIONS.map((p) => [cellField(p), hash6 === null ? null : hash6.slice(0, p)])) as Record<CellField, string | null>;

/** The user's posts lose their coordinates and cells. */
const blankPlaces = (writer: ProjectionWriter, userId: string): void =>
  writer.write(MISSED_CONNECTIONS, { updateMany: { filter: { user_id: userId }, update: { $set: { lat: null, lon: null, ...cells(null) } } } });

export const missedConnectionsProjection = defineProjection({
  name: 'missed_connections',
  version: 2,
  collections: [MISSED_CONNECTIONS, MISSED_CONNECTION_RESPONSES],
  indexes: [
    ...CELL_PRECISIONS.map((p) => ({ collection: MISSED_CONNECTIONS, spec: { keys: { [cellField(p)]: 1 as const, expires_at: 1 as const } } })),
    { collection: MISSED_CONNECTIONS, spec: { keys: { user_id: 1, created_at: -1 } } },
    { collection: MISSED_CONNECTION_RESPONSES, spec: { keys: { missed_connection_id: 1, created_at: 1 } } },
  ],
  on: {
    MissedConnectionPosted: (event, writer) => {
      const d = event.data;
      applyOnce(writer, MISSED_CONNECTIONS, d.missed_connection_id, event, {
        $set: {
          user_id: d.user_id,
          lat: d.lat,
          lon: d.lon,
          // the event's geohash is precision 6; the coarser cells are its prefixes
          ...cells(d.geohash),
          location_name: d.location_name,
          description: d.description,
          was_at: d.was_at,
          is_active: true,
          response_count: 0,
          created_at: d.created_at,
          expires_at: d.expires_at,
        },
      });
    },
    MissedConnectionWithdrawn: (event, writer) =>
      applyOnce(writer, MISSED_CONNECTIONS, event.data.missed_connection_id, event, { $set: { is_active: false } }, { upsert: false }),
    MissedConnectionResponded: (event, writer) => {
      const d = event.data;
      applyOnce(writer, MISSED_CONNECTION_RESPONSES, d.response_id, event, {
        $set: { missed_connection_id: d.missed_connection_id, responder_id: d.responder_id, message: d.message, status: d.status, created_at: d.created_at },
      });
      applyOnce(writer, MISSED_CONNECTIONS, d.missed_connection_id, event, { $inc: { response_count: 1 } }, { upsert: false });
    },
    MissedConnectionResponseAccepted: (event, writer) =>
      applyOnce(writer, MISSED_CONNECTION_RESPONSES, event.data.response_id, event, { $set: { status: 'accepted' } }, { upsert: false }),
    LocationSharingSet: (event, writer) => {
      if (!event.data.enabled) blankPlaces(writer, event.data.user_id);
    },
    // an erased account leaves no place behind
    UserAnonymized: (event, writer) => {
      const userId = event.data.user_id;
      blankPlaces(writer, userId);
      // their texts read as the log does once their key is erased (personal-data.ts)
      writer.write(MISSED_CONNECTIONS, { updateMany: { filter: { user_id: userId }, update: { $set: { location_name: ERASED_TEXT, description: ERASED_TEXT } } } });
      writer.write(MISSED_CONNECTION_RESPONSES, { updateMany: { filter: { responder_id: userId }, update: { $set: { message: ERASED_TEXT } } } });
    },
  },
});
