/**
 * Bodies of the missed-connection routes (social-routes §13), read in the
 * contract's order of checks, each with the JSON Schema of what it accepts
 * (the spec proves they agree). The time window of `was_at` (the past 7 days)
 * needs the clock: the decider checks it.
 */
import { coordinates } from '../../aggregates/proximity/user-location';
import { DomainError } from '../../aggregates/shared/domain-error';

const LOCATION_NAME = { min: 3, max: 200 };
const DESCRIPTION_MAX = 500;
const MESSAGE_MAX = 300;
/** ISO 8601 date or date-time; without a zone it is UTC (§0.1). */
const ISO_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';
const ISO = new RegExp(ISO_PATTERN);

const record = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});
const length = (text: string): number => [...text].length;

function text(value: unknown, field: string, min: number, max: number): string {
  if (value === undefined || value === null || value === '') {
    if (min > 0) throw new DomainError('invalid', `${field} is required`);
  }
  if (typeof value !== 'string') throw new DomainError('invalid', `${field} must be a string`);
  if (length(value) < min || length(value) > max) {
    throw new DomainError('invalid', min > 1 ? `${field} must be ${min}-${max} characters` : `${field} must be at most ${max} characters`);
  }
  return value;
}

export const MISSED_CONNECTION_BODY_SCHEMA = {
  type: 'object',
  required: ['lat', 'lon', 'location_name', 'description', 'was_at'],
  properties: {
    lat: { type: 'number', minimum: -90, maximum: 90, description: 'kept for distances, never shown' },
    lon: { type: 'number', minimum: -180, maximum: 180 },
    location_name: { type: 'string', minLength: LOCATION_NAME.min, maxLength: LOCATION_NAME.max },
    description: { type: 'string', minLength: 1, maxLength: DESCRIPTION_MAX },
    was_at: { type: 'string', pattern: ISO_PATTERN, description: 'ISO 8601 (UTC without a zone); within the past 7 days, not in the future' },
  },
};

export interface MissedConnectionRequest {
  lat: number;
  lon: number;
  locationName: string;
  description: string;
  /** ISO 8601, UTC */
  wasAt: string;
}

/** 400 `lat and lon required`, `Invalid coordinates`, `Coordinates out of range`, then each field's check. */
export function missedConnectionRequest(raw: unknown): MissedConnectionRequest {
  const body = record(raw);
  const { lat, lon } = coordinates(body.lat, body.lon);
  const locationName = text(body.location_name, 'location_name', LOCATION_NAME.min, LOCATION_NAME.max);
  const description = text(body.description, 'description', 1, DESCRIPTION_MAX);
  const wasAt = body.was_at;
  if (wasAt === undefined || wasAt === null || wasAt === '') throw new DomainError('invalid', 'was_at is required');
  if (typeof wasAt !== 'string' || !ISO.test(wasAt)) throw new DomainError('invalid', 'was_at must be an ISO 8601 date-time');
  const zoned = /T.*(Z|[+-]\d{2}:?\d{2})$/.test(wasAt) || !wasAt.includes('T') ? wasAt : `${wasAt}Z`;
  const ms = Date.parse(zoned);
  if (Number.isNaN(ms)) throw new DomainError('invalid', 'was_at must be an ISO 8601 date-time');
  return { lat, lon, locationName, description, wasAt: new Date(ms).toISOString() };
}

export const MISSED_CONNECTION_RESPONSE_BODY_SCHEMA = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string', minLength: 1, maxLength: MESSAGE_MAX } },
};

/** 400 `message is required`, `message must be at most 300 characters`. */
export function missedConnectionResponseRequest(raw: unknown): { message: string } {
  return { message: text(record(raw).message, 'message', 1, MESSAGE_MAX) };
}

export const MISSED_SORTS = ['recent', 'nearest', 'responses'] as const;
export type MissedSort = (typeof MISSED_SORTS)[number];
export const DEFAULT_RADIUS_M = 1000;
export const MAX_RADIUS_M = 50_000;

const NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

/** `?lat=&lon=`: 400 `lat and lon required`, `Invalid coordinates`, `Coordinates out of range`. */
export function pointQuery(query: { lat?: unknown; lon?: unknown } | undefined): { lat: number; lon: number } {
  const read = (value: unknown): unknown => (value === undefined || value === '' ? undefined : typeof value === 'string' && NUMBER.test(value) ? Number(value) : Number.NaN);
  return coordinates(read(query?.lat), read(query?.lon));
}

/** `?lat=&lon=&radius=&sort=` of the radius list: the point, the radius in metres (default 1000, at most 50 km), the order (default recent). */
export function nearQuery(query: { lat?: unknown; lon?: unknown; radius?: unknown; sort?: unknown } | undefined): {
  point: { lat: number; lon: number };
  radius: number;
  sort: MissedSort;
} {
  const point = pointQuery(query);
  const rawRadius = query?.radius;
  let radius = DEFAULT_RADIUS_M;
  if (rawRadius !== undefined && rawRadius !== '') {
    radius = typeof rawRadius === 'string' && NUMBER.test(rawRadius) ? Number(rawRadius) : Number.NaN;
    if (!(radius > 0 && radius <= MAX_RADIUS_M)) throw new DomainError('invalid', `radius must be a number of metres above 0 and at most ${MAX_RADIUS_M}`);
  }
  const rawSort = query?.sort === undefined || query.sort === '' ? 'recent' : query.sort;
  if (typeof rawSort !== 'string' || !(MISSED_SORTS as readonly string[]).includes(rawSort)) throw new DomainError('invalid', `sort must be one of ${MISSED_SORTS.join(', ')}`);
  return { point, radius, sort: rawSort as MissedSort };
}
