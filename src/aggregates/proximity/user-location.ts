/**
 * A user's location (social-routes §13), stream `userLocation-<userId>`: the
 * sharing setting and the last stored ping. The stream is the boundary of the
 * 30 s rule: two concurrent pings of one user serialize, and at most one of
 * them is stored per 30 s. Turning sharing off clears the stored location
 * (the read models drop the coordinates).
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import { geohash } from './geo';

export const PING_INTERVAL_MS = 30_000;
export const PING_LIFETIME_MS = 24 * 3600_000;

export type UserLocationEvent =
  | {
      type: 'LocationPinged';
      data: { user_id: string; lat: number; lon: number; accuracy: number | null; device_id: string | null; geohash: string; at: string; expires_at: string };
    }
  | { type: 'LocationSharingSet'; data: { user_id: string; enabled: boolean; at: string } };

export interface UserLocationState {
  sharing: boolean;
  /** when the last ping was stored; null after sharing was turned off */
  lastPing: { lat: number; lon: number; at: string; expiresAt: string } | null;
}

export type UserLocationCommand =
  | { kind: 'ping'; userId: string; lat: number; lon: number; accuracy: number | null; deviceId: string | null }
  | { kind: 'setSharing'; userId: string; enabled: boolean };

export const userLocationStreamId = (userId: string): string => `userLocation-${userId}`;

/** Coordinates as §13 checks them: both present, JSON numbers, on the globe. */
export function coordinates(lat: unknown, lon: unknown): { lat: number; lon: number } {
  if (lat === undefined || lat === null || lon === undefined || lon === null) throw new DomainError('invalid', 'lat and lon required');
  if (typeof lat !== 'number' || typeof lon !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lon)) throw new DomainError('invalid', 'Invalid coordinates');
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) throw new DomainError('invalid', 'Coordinates out of range');
  return { lat, lon };
}

export const userLocationDecider: Decider<UserLocationState, UserLocationCommand, UserLocationEvent> = {
  initialState: { sharing: false, lastPing: null },
  evolve(state, event) {
    switch (event.type) {
      case 'LocationPinged':
        return { ...state, lastPing: { lat: event.data.lat, lon: event.data.lon, at: event.data.at, expiresAt: event.data.expires_at } };
      case 'LocationSharingSet':
        return { sharing: event.data.enabled, lastPing: event.data.enabled ? state.lastPing : null };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'ping': {
        const { lat, lon } = coordinates(command.lat, command.lon);
        if (state.lastPing && now.getTime() - Date.parse(state.lastPing.at) < PING_INTERVAL_MS) return [];
        const expires_at = new Date(now.getTime() + PING_LIFETIME_MS).toISOString();
        return [
          {
            type: 'LocationPinged',
            data: { user_id: command.userId, lat, lon, accuracy: command.accuracy, device_id: command.deviceId, geohash: geohash({ lat, lon }), at, expires_at },
          },
        ];
      }
      case 'setSharing':
        if (state.sharing === command.enabled && (command.enabled || state.lastPing === null)) return [];
        return [{ type: 'LocationSharingSet', data: { user_id: command.userId, enabled: command.enabled, at } }];
      default:
        return assertNever(command);
    }
  },
};
