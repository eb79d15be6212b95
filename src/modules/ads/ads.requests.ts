/**
 * Bodies and query parameters of the ads routes (social-routes §16), each
 * with the JSON Schema of what it accepts. The create route checks in the
 * contract's order: title and click_url, then the budget; the spark comes
 * last (the wallet).
 */
import { AD_STATUSES, type AdStatus, type AdTargeting, type AdUnitFields, MAX_BUDGET_SPARK, MIN_BUDGET_SPARK, MINIMUM_BUDGET, toCenti } from '../../aggregates/ads/ad-unit';
import { DEFAULT_PLACEMENT, PLACEMENT_NAMES } from '../../aggregates/ads/placements';
import { DomainError } from '../../aggregates/shared/domain-error';
import { type Body, invalid, objectBody } from '../common/body-fields';
import type { WitnessStatement } from '../integrity/witness';
import type { PresentedWitness } from './ad-witness';

export const TITLE_AND_URL_REQUIRED = 'Title and click_url are required';

const TITLE_MAX = 200;
const CONTENT_MAX = 2000;
const URL_MAX = 500;
const LIST_MAX = 50;
const ID_MAX = 128;
const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
const AD_TYPE_PATTERN = /^[a-z][a-z0-9_]{0,31}$/;
const USER_TYPES = ['human', 'agent', 'guest'] as const;
const HTTP_URL = /^https?:\/\/[^\s]+$/i;
const SIGNATURE_PATTERN = /^[0-9a-f]{128}$/i;
export const DEFAULT_BUDGET_SPARK = 100;
export const DEFAULT_COST_PER_IMPRESSION = 0.1;
export const DEFAULT_COST_PER_CLICK = 1;

const orNullSchema = (schema: Record<string, unknown>, description?: string) => ({ anyOf: [schema, { type: 'null' }], ...(description ? { description } : {}) });
const costSchema = (fallback: number) =>
  orNullSchema({ type: 'number', exclusiveMinimum: 0, multipleOf: 0.01, default: fallback }, `spark, a multiple of 0.01 from 0.01 to the budget; default ${fallback}`);
const idList = orNullSchema({ type: 'array', maxItems: LIST_MAX, items: { type: 'string', pattern: ID_PATTERN.source } });
const timeSchema = orNullSchema({ anyOf: [{ type: 'string', format: 'date-time' }, { const: '' }] }, 'ISO 8601');

export const CREATE_AD_BODY_SCHEMA = {
  type: 'object',
  required: ['title', 'click_url'],
  properties: {
    title: { type: 'string', pattern: '\\S', maxLength: TITLE_MAX },
    click_url: { type: 'string', maxLength: URL_MAX, pattern: HTTP_URL.source, description: 'an http(s) URL' },
    content: orNullSchema({ type: 'string', maxLength: CONTENT_MAX }),
    image_url: orNullSchema({ anyOf: [{ type: 'string', maxLength: URL_MAX, pattern: HTTP_URL.source }, { const: '' }] }),
    ad_type: orNullSchema({ type: 'string', pattern: AD_TYPE_PATTERN.source }, 'default banner'),
    targeting: orNullSchema(
      { type: 'object', properties: { region_ids: idList, community_ids: idList, user_types: orNullSchema({ type: 'array', items: { enum: [...USER_TYPES] } }) } },
      'a targeted dimension (a non-empty list) requires the request’s value in it; an empty or missing one matches everyone',
    ),
    budget_spark: orNullSchema({ type: 'integer', minimum: MIN_BUDGET_SPARK, maximum: MAX_BUDGET_SPARK }, `held from your spark up front; default ${DEFAULT_BUDGET_SPARK}`),
    cost_per_impression: costSchema(DEFAULT_COST_PER_IMPRESSION),
    cost_per_click: costSchema(DEFAULT_COST_PER_CLICK),
    starts_at: timeSchema,
    ends_at: timeSchema,
  },
};

/** What the advertiser chooses of an ad unit: the aggregate's fields but the ids the server assigns. */
export type CreateAdRequest = Omit<AdUnitFields, 'ad_id' | 'advertiser_id'>;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

function httpUrl(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length > URL_MAX || !HTTP_URL.test(value.trim()) || !URL.canParse(value.trim())) {
    throw invalid(`${field} must be an http(s) URL of at most ${URL_MAX} characters`);
  }
  return value.trim();
}

function idsOf(value: unknown, field: string, allowed?: readonly string[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > LIST_MAX || !value.every((v) => typeof v === 'string' && (allowed ? allowed.includes(v) : ID_PATTERN.test(v)))) {
    throw invalid(allowed ? `targeting.${field} must be a list of ${allowed.join(', ')}` : `targeting.${field} must be a list of at most ${LIST_MAX} ids`);
  }
  return [...new Set(value as string[])];
}

function targetingOf(value: unknown): AdTargeting {
  if (value === undefined || value === null) return { region_ids: [], community_ids: [], user_types: [] };
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('targeting must be an object');
  const t = value as Body;
  return { region_ids: idsOf(t.region_ids, 'region_ids'), community_ids: idsOf(t.community_ids, 'community_ids'), user_types: idsOf(t.user_types, 'user_types', USER_TYPES) };
}

function timeOf(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  const at = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(at)) throw invalid(`${field} must be an ISO 8601 time`);
  return new Date(at).toISOString();
}

function costOf(value: unknown, field: string, fallback: number, budget: number): number {
  if (value === undefined || value === null) return fallback;
  const centi = typeof value === 'number' ? toCenti(value) : null;
  if (centi === null || centi < 1 || centi > budget * 100) throw invalid(`${field} must be a multiple of 0.01 spark from 0.01 to the budget`);
  return centi / 100;
}

/** 400 `Title and click_url are required`, then `Minimum budget is 50 Spark`, then a field that is malformed. */
export function createAdRequest(raw: unknown): CreateAdRequest {
  const body = objectBody(raw);
  const title = text(body.title);
  const clickUrl = text(body.click_url);
  if (!title || !clickUrl) throw invalid(TITLE_AND_URL_REQUIRED);
  const budget = body.budget_spark ?? DEFAULT_BUDGET_SPARK;
  if (typeof budget !== 'number' || !Number.isFinite(budget)) throw invalid('budget_spark must be a number');
  if (budget < MIN_BUDGET_SPARK) throw invalid(MINIMUM_BUDGET);
  if (!Number.isInteger(budget) || budget > MAX_BUDGET_SPARK) throw invalid(`budget_spark must be a whole number of spark from ${MIN_BUDGET_SPARK} to ${MAX_BUDGET_SPARK}`);
  if ([...title].length > TITLE_MAX) throw invalid(`title must be at most ${TITLE_MAX} characters`);
  const content = body.content ?? '';
  if (typeof content !== 'string' || [...content].length > CONTENT_MAX) throw invalid(`content must be a string of at most ${CONTENT_MAX} characters`);
  const adType = body.ad_type ?? 'banner';
  if (typeof adType !== 'string' || !AD_TYPE_PATTERN.test(adType)) throw invalid('ad_type must be 1-32 lowercase letters, digits or _');
  const startsAt = timeOf(body.starts_at, 'starts_at');
  const endsAt = timeOf(body.ends_at, 'ends_at');
  if (startsAt && endsAt && endsAt <= startsAt) throw invalid('ends_at must be after starts_at');
  return {
    title,
    content,
    image_url: body.image_url === undefined || body.image_url === null || body.image_url === '' ? null : httpUrl(body.image_url, 'image_url'),
    click_url: httpUrl(clickUrl, 'click_url'),
    ad_type: adType,
    targeting: targetingOf(body.targeting),
    budget_spark: budget,
    cost_per_impression: costOf(body.cost_per_impression, 'cost_per_impression', DEFAULT_COST_PER_IMPRESSION, budget),
    cost_per_click: costOf(body.cost_per_click, 'cost_per_click', DEFAULT_COST_PER_CLICK, budget),
    starts_at: startsAt,
    ends_at: endsAt,
  };
}

/** An optional id of a query or body: null when absent or empty, else 1-128 of [A-Za-z0-9_.:-]. */
function optionalId(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) throw invalid(`${field} must be 1-${ID_MAX} letters, digits, _ . : -`);
  return value;
}

function placementOf(value: unknown, fallback: string | null): string | null {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string' || !PLACEMENT_NAMES.includes(value)) throw invalid(`placement must be one of ${PLACEMENT_NAMES.join(', ')}`);
  return value;
}

export interface ServeRequest {
  placement: string;
  region: string | null;
  communityId: string | null;
  nodeId: string | null;
}

export function serveRequest(query: Record<string, unknown>): ServeRequest {
  return {
    placement: placementOf(query.placement, DEFAULT_PLACEMENT)!,
    region: optionalId(query.region, 'region'),
    communityId: optionalId(query.community_id, 'community_id'),
    nodeId: optionalId(query.node_id, 'node_id'),
  };
}

/** An optional id: absent, null, empty, an integer, or 1-128 of [A-Za-z0-9_.:-]. */
const optionalIdSchema = (description?: string) => ({
  anyOf: [{ type: 'string', pattern: `^$|${ID_PATTERN.source}` }, { type: 'integer' }, { type: 'null' }],
  ...(description ? { description } : {}),
});

const STATEMENT_TEXT_FIELDS = ['impression_id', 'ad_id', 'nonce', 'requester_node_id', 'witness_node_id', 'witnessed_at'] as const;

const WITNESS_STATEMENT_SCHEMA = {
  type: 'object',
  required: [...STATEMENT_TEXT_FIELDS, 'requester_timestamp'],
  properties: { ...Object.fromEntries(STATEMENT_TEXT_FIELDS.map((field) => [field, { type: 'string' }])), requester_timestamp: { type: ['number', 'string'] } },
};

export const CHARGE_BODY_SCHEMA = {
  type: 'object',
  properties: {
    node_id: optionalIdSchema('the node that served the ad: its operator (AD_NODE_OPERATORS) gets a share'),
    region_id: optionalIdSchema(),
    placement_id: { anyOf: [{ enum: [...PLACEMENT_NAMES, ''] }, { type: 'null' }] },
    witness: orNullSchema(WITNESS_STATEMENT_SCHEMA, 'the `witness` statement of a peer’s POST /integrity/witness-impression answer for this ad, requested by `node_id`'),
    witness_signature: orNullSchema({ type: 'string', pattern: SIGNATURE_PATTERN.source }, 'the answer’s `witness_signature`: the witness node’s Ed25519 (hex) over the canonical JSON of `witness`'),
  },
};

export interface ChargeRequest {
  nodeId: string | null;
  regionId: string | null;
  placementId: string | null;
  witness: PresentedWitness | null;
}

function statementOf(value: unknown): WitnessStatement | null {
  if (value === undefined || value === null) return null;
  const w = value as Body;
  const complete =
    typeof value === 'object' &&
    !Array.isArray(value) &&
    STATEMENT_TEXT_FIELDS.every((field) => typeof w[field] === 'string') &&
    (typeof w.requester_timestamp === 'string' || (typeof w.requester_timestamp === 'number' && Number.isFinite(w.requester_timestamp)));
  if (!complete) throw invalid(`witness must be a witness statement {${[...STATEMENT_TEXT_FIELDS, 'requester_timestamp'].sort().join(', ')}}`);
  return value as WitnessStatement;
}

/** 400 for a malformed field; a witness statement without its signature (or the reverse) is no witness. */
export function chargeRequest(raw: unknown): ChargeRequest {
  const body = objectBody(raw);
  const statement = statementOf(body.witness);
  const signature = body.witness_signature ?? null;
  if (signature !== null && (typeof signature !== 'string' || !SIGNATURE_PATTERN.test(signature))) throw invalid('witness_signature must be 128 hex characters');
  return {
    nodeId: optionalId(body.node_id, 'node_id'),
    regionId: optionalId(body.region_id, 'region_id'),
    placementId: placementOf(body.placement_id, null),
    witness: statement && signature ? { witness: statement, witness_signature: (signature as string).toLowerCase() } : null,
  };
}

/** `?status=` of /ads/mine: one of the statuses, or all when absent. */
export function statusQuery(value: unknown): AdStatus | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !(AD_STATUSES as readonly string[]).includes(value)) throw new DomainError('invalid', `status must be one of ${AD_STATUSES.join(', ')}`);
  return value as AdStatus;
}
