/**
 * `location_pings`: each user's last stored ping (social-routes §13), by user
 * id, with its geohash cell (precision 6), the index key of every geo lookup:
 * a lookup reads the cell of a point and its neighbours by indexed equality,
 * never every ping. Turning sharing off (or erasing the account) blanks the
 * coordinates and the cell.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const LOCATION_PINGS = 'location_pings';

export interface LocationPingDoc extends Doc {
  user_id: string;
  lat: number | null;
  lon: number | null;
  geohash: string | null;
  at: string | null;
  expires_at: string | null;
}

const CLEARED = { lat: null, lon: null, geohash: null, at: null, expires_at: null };

export const locationPingsProjection = defineProjection({
  name: 'location_pings',
  version: 1,
  collections: [LOCATION_PINGS],
  indexes: [{ collection: LOCATION_PINGS, spec: { keys: { geohash: 1, expires_at: 1 } } }],
  on: {
    LocationPinged: (event, writer) => {
      const { user_id, lat, lon, geohash, at, expires_at } = event.data;
      applyOnce(writer, LOCATION_PINGS, user_id, event, { $set: { user_id, lat, lon, geohash, at, expires_at } });
    },
    LocationSharingSet: (event, writer) => {
      if (!event.data.enabled) applyOnce(writer, LOCATION_PINGS, event.data.user_id, event, { $set: CLEARED });
    },
    // an erased account leaves no location behind
    UserAnonymized: (event, writer) => applyOnce(writer, LOCATION_PINGS, event.data.user_id, event, { $set: CLEARED }, { upsert: false }),
  },
});
