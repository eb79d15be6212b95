/**
 * Request bodies of the encounter routes, read by hand rather than with
 * class-validator DTOs: SPEC §7 prescribes one exact error text per failure
 * and the order of the checks, which a list of decorators does not state.
 * Every function here throws a 400 DomainError with the contract's text, or
 * returns typed values; unknown fields are ignored.
 */
import type { DiscoverableCommand } from '../../aggregates/encounter/discoverable';
import type { EncounterPairCommand } from '../../aggregates/encounter/encounter-pair';
import type { SwipeDecision } from '../../aggregates/encounter/encounter.events';
import { isSightablePubkey, normalisePubkey } from '../../aggregates/encounter/pubkey';
import type { SightingCommand } from '../../aggregates/encounter/sighting';
import type { CommandInput } from '../../aggregates/shared/decider';
import { type Body, flag, invalid, nameOf, numberIn, objectBody } from '../common/body-fields';
import { flagSchema, type JsonSchema, list, num, obj, oneOf, orNull, str } from '../common/openapi';

function optionalInteger(body: Body, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw invalid(`${field} must be an integer`);
  return Math.trunc(n);
}

function optionalCoordinate(body: Body, field: 'lat' | 'lng'): number | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  const range = field === 'lat' ? 90 : 180;
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > range) {
    throw invalid(`${field} must be a number from -${range} to ${range}`);
  }
  return value;
}

function requiredId(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${field} required`);
  return value.trim();
}

/** A POST discoverable body: the decider's `set` command without what the handler adds. */
export type DiscoverableRequest = Omit<CommandInput<DiscoverableCommand, 'set'>, 'userId' | 'limits'>;

export function discoverableRequest(raw: unknown): DiscoverableRequest {
  const body = objectBody(raw);
  const vibeTags = body.vibe_tags;
  if (vibeTags !== undefined && vibeTags !== null && (!Array.isArray(vibeTags) || vibeTags.some((t) => typeof t !== 'string'))) {
    throw invalid('vibe_tags must be a list of strings');
  }
  const avatarStyle = body.avatar_style;
  if (avatarStyle !== undefined && avatarStyle !== null && typeof avatarStyle !== 'string') {
    throw invalid('avatar_style must be a string');
  }
  return {
    enabled: flag(body, 'enabled') ?? false,
    ttlSec: optionalInteger(body, 'ttl_sec'),
    ageClaim18: flag(body, 'age_claim_18'),
    faceVisible: flag(body, 'face_visible'),
    // shown to the people nearby: names' rules (NFC, no control, bidi or invisible characters)
    avatarStyle: typeof avatarStyle === 'string' ? nameOf(avatarStyle, 'avatar_style') : undefined,
    vibeTags: Array.isArray(vibeTags) ? (vibeTags as string[]).map((tag, i) => nameOf(tag, `vibe_tags[${i}]`)) : undefined,
  };
}

/** dBm, a signed byte as Bluetooth LE reports it */
const RSSI_RANGE = { min: -128, max: 127, integer: true };
/** seconds; a negative dwell reads as 0; at most a day */
const DWELL_RANGE = { min: 0, max: 86_400, integer: true };

/** A POST sighting body: the peer's raw pubkey (the handler finds the peer by its digest) and the decider's measurements. */
export type SightingRequest = { peerPubkey: string } & Pick<CommandInput<SightingCommand, 'record'>, 'rssiPeak' | 'dwellSec' | 'lat' | 'lng'>;

export function sightingRequest(raw: unknown): SightingRequest {
  const body = objectBody(raw);
  const peerPubkey = isSightablePubkey(body.peer_pubkey);
  if (peerPubkey === null) throw invalid('peer_pubkey required (hex, >=16 chars)');
  return {
    peerPubkey,
    rssiPeak: numberIn(optionalInteger(body, 'rssi_peak') ?? 0, 'rssi_peak', RSSI_RANGE),
    dwellSec: numberIn(Math.max(0, optionalInteger(body, 'dwell_sec') ?? 0), 'dwell_sec', DWELL_RANGE),
    lat: optionalCoordinate(body, 'lat'),
    lng: optionalCoordinate(body, 'lng'),
  };
}

/** A POST swipe body: the handler finds the sighting and its pair's stream. */
export interface SwipeRequest {
  sightingId: string;
  decision: SwipeDecision;
}

export function swipeRequest(raw: unknown): SwipeRequest {
  const body = objectBody(raw);
  const sightingId = requiredId(body, 'sighting_id');
  const decision = typeof body.decision === 'string' ? body.decision.trim().toLowerCase() : '';
  if (decision !== 'like' && decision !== 'dislike') throw invalid("decision must be 'like' or 'dislike'");
  return { sightingId, decision };
}

export function matchIdRequest(raw: unknown): string {
  return requiredId(objectBody(raw), 'match_id');
}

export type ApproveRequest = Pick<CommandInput<EncounterPairCommand, 'approveIcebreaker'>, 'matchId' | 'text'>;

export function approveRequest(raw: unknown): ApproveRequest {
  const body = objectBody(raw);
  const matchId = requiredId(body, 'match_id');
  const text = typeof body.text === 'string' ? body.text.trim() : '';
  if (text === '') throw invalid('text required');
  return { matchId, text };
}

export type DeclineRequest = Pick<CommandInput<EncounterPairCommand, 'declineIcebreaker'>, 'matchId' | 'reason'>;

export function declineRequest(raw: unknown): DeclineRequest {
  const body = objectBody(raw);
  const matchId = requiredId(body, 'match_id');
  const reason = body.reason;
  if (reason !== undefined && reason !== null && typeof reason !== 'string') throw invalid('reason must be a string');
  return { matchId, reason: typeof reason === 'string' ? reason : null };
}

/** A POST register-pubkey body: the raw key, normalised (the handler records its digest). */
export interface RegisterPubkeyRequest {
  pubkey: string;
}

export function registerPubkeyRequest(raw: unknown): RegisterPubkeyRequest {
  const body = objectBody(raw);
  const pubkey = normalisePubkey(body.pubkey);
  if (pubkey === null) throw invalid('pubkey hex 16..128 chars');
  return { pubkey };
}

const CONSENT_NAME = /^[a-z][a-z0-9_]{0,63}$/;

export interface ConsentRequest {
  consent: boolean;
  consentType: string;
  scope: string;
}

/** PUT consent: `consent` (boolean, required), `consent_type` (default cloud_capability), `scope` (default `*`). */
export function consentRequest(raw: unknown): ConsentRequest {
  const body = objectBody(raw);
  const consent = flag(body, 'consent');
  if (consent === undefined) throw invalid('consent must be a boolean');
  const consentType = body.consent_type ?? 'cloud_capability';
  if (typeof consentType !== 'string' || !CONSENT_NAME.test(consentType)) {
    throw invalid('consent_type must be 1-64 lower-case letters, digits or _');
  }
  const scope = body.scope ?? '*';
  if (typeof scope !== 'string' || (scope !== '*' && !CONSENT_NAME.test(scope))) {
    throw invalid("scope must be '*' or 1-64 lower-case letters, digits or _");
  }
  return { consent, consentType, scope };
}

// ---- The bodies above as JSON Schema, for the OpenAPI document; encounter.requests.spec.ts proves the readers agree.

/** `optionalInteger`: a number (cut to an integer) or a string of digits; null is absent. */
const integerish = { anyOf: [num(), str({ pattern: '^\\s*-?\\d+\\s*$' }), { type: 'null' }] };
const coordinate = (range: number): JsonSchema => orNull(num({ minimum: -range, maximum: range }));
/** `requiredId`: a string with something besides blanks (trimmed). */
const id = str({ pattern: '\\S' });
const pubkey = str({ pattern: '^\\s*[0-9A-Fa-f]{16,128}\\s*$', description: 'hex, 16-128 digits' });

export const DISCOVERABLE_BODY_SCHEMA: JsonSchema = obj(
  {
    enabled: flagSchema('default false'),
    ttl_sec: integerish,
    age_claim_18: flagSchema('must be true in a request that enables'),
    face_visible: flagSchema(),
    avatar_style: orNull(str()),
    vibe_tags: orNull(list(str())),
  },
  ['enabled', 'ttl_sec', 'age_claim_18', 'face_visible', 'avatar_style', 'vibe_tags'],
);
/** rssi_peak: an integerish value whose integer part is -128..127 (an int8, RSSI_RANGE). */
const rssiPeak = {
  anyOf: [num({ exclusiveMinimum: -129, exclusiveMaximum: 128 }), str({ pattern: '^\\s*(-?(\\d|[1-9]\\d|1[01]\\d|12[0-7])|-128)\\s*$' }), { type: 'null' }],
  description: 'dBm, -128..127',
};
/** dwell_sec: an integerish value whose integer part is at most 86400 (a negative one counts as 0, DWELL_RANGE). */
const dwellSec = {
  anyOf: [num({ exclusiveMaximum: 86_401 }), str({ pattern: '^\\s*(-\\d+|\\d{1,4}|[1-7]\\d{4}|8[0-5]\\d{3}|86[0-3]\\d{2}|86400)\\s*$' }), { type: 'null' }],
  description: 'seconds, 0..86400',
};

export const SIGHTING_BODY_SCHEMA: JsonSchema = obj(
  { peer_pubkey: pubkey, rssi_peak: rssiPeak, dwell_sec: dwellSec, lat: coordinate(90), lng: coordinate(180) },
  ['rssi_peak', 'dwell_sec', 'lat', 'lng'],
);
export const SWIPE_BODY_SCHEMA: JsonSchema = obj({
  sighting_id: id,
  decision: str({ pattern: '^\\s*(?:[Ll][Ii][Kk][Ee]|[Dd][Ii][Ss][Ll][Ii][Kk][Ee])\\s*$', description: 'like or dislike (any case)' }),
});
export const MATCH_ID_BODY_SCHEMA: JsonSchema = obj({ match_id: id });
export const APPROVE_BODY_SCHEMA: JsonSchema = obj({ match_id: id, text: str({ pattern: '\\S' }) });
export const DECLINE_BODY_SCHEMA: JsonSchema = obj({ match_id: id, reason: orNull(str()) }, ['reason']);
export const REGISTER_PUBKEY_BODY_SCHEMA: JsonSchema = obj({ pubkey });
export const CONSENT_BODY_SCHEMA: JsonSchema = obj(
  {
    consent: oneOf([true, false, 'true', 'false']),
    consent_type: orNull(str({ pattern: CONSENT_NAME.source, description: 'default cloud_capability' })),
    scope: orNull(str({ pattern: `^(?:\\*|${CONSENT_NAME.source.slice(1, -1)})$`, description: "default '*'" })),
  },
  ['consent_type', 'scope'],
);
