/** Bodies and query strings of the §20 oversight routes, each with the JSON Schema of what it accepts. */
import { ALERT_SEVERITIES, ALERT_STATUSES, type AlertStatus } from '../../aggregates/integrity/node-standing';
import { DomainError } from '../../aggregates/shared/domain-error';
import type { JsonSchema } from '../common/openapi';
import { type Page, type PageRule, pageQuery, pageQuerySchemas } from '../common/paging';
import type { AlertFilter } from './integrity-oversight.queries';
import { NODE_ID } from './integrity.requests';
import type { ImpressionWitnessRequest } from './witness';

const record = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});
const invalid = (message: string) => new DomainError('invalid', message);
const ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const HEX64 = /^[0-9a-f]{64}$/i;
const NONCE = /^[A-Za-z0-9_.:-]{8,128}$/;

export const WITNESS_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['node_id', 'timestamp', 'impression_id', 'ad_id', 'nonce'],
  properties: {
    node_id: { type: 'string', pattern: NODE_ID.source, description: 'the requesting node: its REGISTERED key checks the signature' },
    timestamp: { anyOf: [{ type: 'integer', description: 'Unix ms' }, { type: 'string', description: 'Unix ms or ISO 8601' }] },
    impression_id: { type: 'string', pattern: ID.source },
    ad_id: { type: 'string', pattern: ID.source },
    nonce: { type: 'string', pattern: NONCE.source },
    signature: { type: 'string', description: 'Ed25519 (hex) over canonical JSON {ad_id, impression_id, node_id, nonce, timestamp} (modules/integrity/witness.ts)' },
    public_key: { type: 'string', pattern: HEX64.source, description: 'informative; must be the registered key when given' },
  },
};

/** 400 for a missing or malformed field; a missing signature is judged later (no witness), not refused here. */
export function witnessRequest(raw: unknown): ImpressionWitnessRequest {
  const b = record(raw);
  const text = (field: string, pattern: RegExp): string => {
    const value = b[field];
    if (typeof value !== 'string' || !pattern.test(value)) throw invalid(`${field} is required: ${pattern === NONCE ? '8-128' : '1-128'} letters, digits or _ . : -`);
    return value;
  };
  const timestamp = b.timestamp;
  if (!((typeof timestamp === 'number' && Number.isFinite(timestamp)) || (typeof timestamp === 'string' && timestamp.length > 0 && timestamp.length <= 40))) {
    throw invalid('timestamp is required: Unix milliseconds or an ISO 8601 time');
  }
  const signature = b.signature;
  if (signature !== undefined && signature !== null && (typeof signature !== 'string' || signature.length > 256)) throw invalid('signature must be a hex string');
  const publicKey = b.public_key;
  if (publicKey !== undefined && publicKey !== null && (typeof publicKey !== 'string' || !HEX64.test(publicKey))) throw invalid('public_key must be 64 hex characters');
  return {
    node_id: text('node_id', NODE_ID),
    timestamp,
    impression_id: text('impression_id', ID),
    ad_id: text('ad_id', ID),
    nonce: text('nonce', NONCE),
    signature: typeof signature === 'string' ? signature : '',
    ...(typeof publicKey === 'string' ? { public_key: publicKey } : {}),
  };
}

/** GET /integrity/peer-stats?node_id= */
export function peerStatsNodeId(query: Record<string, unknown> | undefined): string {
  const id = query?.node_id;
  if (typeof id !== 'string' || !NODE_ID.test(id)) throw invalid('node_id is required: 1-128 letters, digits or _ . : -');
  return id;
}

export const ALERTS_PAGE: PageRule = { defaultLimit: 50, cap: 100 };

export const ALERT_QUERY_SCHEMAS: Record<string, JsonSchema> = {
  node_id: { type: 'string', pattern: NODE_ID.source },
  status: { enum: [...ALERT_STATUSES] },
  severity: { enum: [...ALERT_SEVERITIES] },
  ...pageQuerySchemas(ALERTS_PAGE),
};

export function alertsQuery(query: Record<string, unknown> | undefined): { filter: AlertFilter; page: Page } {
  const filter: AlertFilter = {};
  const nodeId = query?.node_id;
  if (nodeId !== undefined && nodeId !== '') {
    if (typeof nodeId !== 'string' || !NODE_ID.test(nodeId)) throw invalid('node_id must be 1-128 letters, digits or _ . : -');
    filter.nodeId = nodeId;
  }
  const status = query?.status;
  if (status !== undefined && status !== '') {
    if (typeof status !== 'string' || !(ALERT_STATUSES as readonly string[]).includes(status)) throw invalid(`status must be one of ${ALERT_STATUSES.join(', ')}`);
    filter.status = status;
  }
  const severity = query?.severity;
  if (severity !== undefined && severity !== '') {
    if (typeof severity !== 'string' || !(ALERT_SEVERITIES as readonly string[]).includes(severity)) throw invalid(`severity must be one of ${ALERT_SEVERITIES.join(', ')}`);
    filter.severity = severity;
  }
  return { filter, page: pageQuery(query, ALERTS_PAGE) };
}

export const ALERT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const ALERT_PATCH_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { status: { enum: [...ALERT_STATUSES], default: 'investigating' }, reviewed_by: { type: 'string', description: 'ignored: the reviewer is the signed-in admin' } },
};

/** PATCH /integrity/alerts/{id}: status (default `investigating`, §20). */
export function alertPatch(raw: unknown): { status: AlertStatus } {
  const status = record(raw).status ?? 'investigating';
  if (typeof status !== 'string' || !(ALERT_STATUSES as readonly string[]).includes(status)) throw invalid(`status must be one of ${ALERT_STATUSES.join(', ')}`);
  return { status: status as AlertStatus };
}

export const REGISTER_NODE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['node_id', 'public_key'],
  properties: {
    node_id: { type: 'string', pattern: NODE_ID.source },
    public_key: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'the raw Ed25519 key (hex); the request must be signed with it as node_id (x-node-* headers)' },
    code_hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    version: { type: 'string', pattern: '^[A-Za-z0-9_.+-]{1,64}$' },
    signature: { type: 'string', description: 'accepted for the original clients and ignored: the x-node-* signature proves the key' },
  },
};

export function registerNodeRequest(raw: unknown): { nodeId: string; publicKey: string; codeHash: string | null; version: string | null } {
  const b = record(raw);
  if (typeof b.node_id !== 'string' || !NODE_ID.test(b.node_id)) throw invalid('node_id is required: 1-128 letters, digits or _ . : -');
  if (typeof b.public_key !== 'string' || !/^[0-9a-f]{64}$/.test(b.public_key)) throw invalid('public_key is required: 64 lower-case hex characters');
  const codeHash = b.code_hash ?? null;
  if (codeHash !== null && (typeof codeHash !== 'string' || !/^[0-9a-f]{64}$/.test(codeHash))) throw invalid('code_hash must be 64 lower-case hex characters');
  const version = b.version ?? null;
  if (version !== null && (typeof version !== 'string' || !/^[A-Za-z0-9_.+-]{1,64}$/.test(version))) throw invalid('version must be 1-64 letters, digits or _ . + -');
  return { nodeId: b.node_id, publicKey: b.public_key, codeHash, version };
}

export function versionQuery(query: Record<string, unknown> | undefined, fallback: string): string {
  const v = query?.version;
  if (v === undefined || v === '') return fallback;
  if (typeof v !== 'string' || !/^[A-Za-z0-9_.+-]{1,64}$/.test(v)) throw invalid('version must be 1-64 letters, digits or _ . + -');
  return v;
}
