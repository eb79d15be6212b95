/**
 * Bodies of the location routes (social-routes §13), read in the contract's
 * order of checks, each with the JSON Schema of what it accepts (the spec
 * proves they agree).
 */
import { coordinates } from '../../aggregates/proximity/user-location';
import { DomainError } from '../../aggregates/shared/domain-error';

const DEVICE_ID_MAX = 200;
const record = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

export const LOCATION_PING_BODY_SCHEMA = {
  type: 'object',
  required: ['lat', 'lon'],
  properties: {
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lon: { type: 'number', minimum: -180, maximum: 180 },
    accuracy: { anyOf: [{ type: 'number', minimum: 0 }, { type: 'null' }], description: 'metres' },
    device_id: { anyOf: [{ type: 'string', maxLength: DEVICE_ID_MAX }, { type: 'null' }] },
  },
};

export interface LocationPingRequest {
  lat: number;
  lon: number;
  accuracy: number | null;
  deviceId: string | null;
}

/** 400 `lat and lon required`, `Invalid coordinates`, `Coordinates out of range`; then the optional fields. */
export function locationPingRequest(raw: unknown): LocationPingRequest {
  const body = record(raw);
  const { lat, lon } = coordinates(body.lat, body.lon);
  const accuracy = body.accuracy ?? null;
  if (accuracy !== null && (typeof accuracy !== 'number' || !Number.isFinite(accuracy) || accuracy < 0)) {
    throw new DomainError('invalid', 'accuracy must be a non-negative number');
  }
  const deviceId = body.device_id ?? null;
  if (deviceId !== null && (typeof deviceId !== 'string' || [...deviceId].length > DEVICE_ID_MAX)) {
    throw new DomainError('invalid', `device_id must be a string of at most ${DEVICE_ID_MAX} characters`);
  }
  return { lat, lon, accuracy, deviceId };
}

export const LOCATION_SETTINGS_BODY_SCHEMA = {
  type: 'object',
  required: ['location_sharing_enabled'],
  properties: { location_sharing_enabled: { type: 'boolean' } },
};

/** 400 `location_sharing_enabled must be a boolean`. */
export function locationSettingsRequest(raw: unknown): { enabled: boolean } {
  const value = record(raw).location_sharing_enabled;
  if (typeof value !== 'boolean') throw new DomainError('invalid', 'location_sharing_enabled must be a boolean');
  return { enabled: value };
}
