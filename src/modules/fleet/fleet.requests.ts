/** Bodies of the hierarchy and provision routes (social-routes §18), each with the JSON Schema of what it accepts. */
import type { DeployRequest } from '../../aggregates/fleet/provisioning';
import { DomainError } from '../../aggregates/shared/domain-error';
import type { JsonSchema } from '../common/openapi';

const record = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});
const invalid = (message: string) => new DomainError('invalid', message);

export const NODE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const NAME = /^[^\u0000-\u001f\u007f]{1,100}$/;
const MAX_INFO_BYTES = 8192;

const nodeIdField = (b: Record<string, unknown>, field: string): string => {
  const v = b[field];
  if (typeof v !== 'string' || !NODE_ID.test(v)) throw invalid(`${field} is required: 1-128 letters, digits or _ . : -`);
  return v;
};
const info = (b: Record<string, unknown>, field: string): Record<string, unknown> => {
  const v = b[field] ?? {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(`${field} must be an object`);
  if (JSON.stringify(v).length > MAX_INFO_BYTES) throw invalid(`${field} must be at most ${MAX_INFO_BYTES} bytes of JSON`);
  return v as Record<string, unknown>;
};
const text = (b: Record<string, unknown>, field: string, fallback: string | null, required = false): string | null => {
  const v = b[field];
  if (v === undefined || v === null || v === '') {
    if (required) throw invalid(`${field} is required`);
    return fallback;
  }
  if (typeof v !== 'string' || !NAME.test(v)) throw invalid(`${field} must be 1-100 characters without control characters`);
  return v;
};

const idSchema = { type: 'string', pattern: NODE_ID.source };
const objectSchema = { type: 'object', additionalProperties: true };

export const PROMOTE_SCHEMA: JsonSchema = { type: 'object', required: ['node_id', 'region_name'], properties: { node_id: idSchema, region_name: { type: 'string', maxLength: 100 } } };
export function promoteRequest(raw: unknown) {
  const b = record(raw);
  return { nodeId: nodeIdField(b, 'node_id'), regionName: text(b, 'region_name', null, true) as string };
}

export const DEMOTE_SCHEMA: JsonSchema = { type: 'object', required: ['node_id'], properties: { node_id: idSchema, reason: { type: 'string', maxLength: 100 } } };
export function demoteRequest(raw: unknown) {
  const b = record(raw);
  return { nodeId: nodeIdField(b, 'node_id'), reason: text(b, 'reason', 'demoted by central') as string };
}

export const REGISTER_REGIONAL_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['node_id', 'public_key', 'region_name'],
  properties: { node_id: idSchema, public_key: { type: 'string', pattern: HEX64.source }, region_name: { type: 'string', maxLength: 100 }, certificate: { type: 'string', maxLength: 4096 }, compute_info: objectSchema },
};
export function registerRegionalRequest(raw: unknown) {
  const b = record(raw);
  const publicKey = b.public_key;
  if (typeof publicKey !== 'string' || !HEX64.test(publicKey)) throw invalid('public_key is required: 64 lower-case hex characters');
  const certificate = b.certificate ?? null;
  if (certificate !== null && (typeof certificate !== 'string' || certificate.length > 4096)) throw invalid('certificate must be text of at most 4096 characters');
  return { nodeId: nodeIdField(b, 'node_id'), publicKey, regionName: text(b, 'region_name', null, true) as string, certificate, computeInfo: info(b, 'compute_info') };
}

export const REGISTER_LOCAL_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['node_id', 'public_key'],
  properties: { node_id: idSchema, public_key: { type: 'string', pattern: HEX64.source, description: 'the request must be signed with it as node_id' }, compute_info: objectSchema, geo_info: objectSchema },
};
export function registerLocalRequest(raw: unknown) {
  const b = record(raw);
  const publicKey = b.public_key;
  if (typeof publicKey !== 'string' || !HEX64.test(publicKey)) throw invalid('public_key is required: 64 lower-case hex characters');
  return { nodeId: nodeIdField(b, 'node_id'), publicKey, computeInfo: info(b, 'compute_info'), geoInfo: info(b, 'geo_info') };
}

export const ASSIGN_SCHEMA: JsonSchema = { type: 'object', required: ['local_node_id'], properties: { local_node_id: idSchema } };
export const assignRequest = (raw: unknown) => ({ nodeId: nodeIdField(record(raw), 'local_node_id') });

export const SWITCH_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['local_node_id', 'new_region_id'],
  properties: { local_node_id: idSchema, new_region_id: idSchema, requester: { type: 'string', description: 'ignored: the requester is the signing node' } },
};
export function switchRequest(raw: unknown) {
  const b = record(raw);
  return { nodeId: nodeIdField(b, 'local_node_id'), regionId: nodeIdField(b, 'new_region_id') };
}

export const CAPACITY_SCHEMA: JsonSchema = { type: 'object', required: ['node_id'], properties: { node_id: idSchema, compute_info: objectSchema } };
export function capacityRequest(raw: unknown) {
  const b = record(raw);
  return { nodeId: nodeIdField(b, 'node_id'), computeInfo: info(b, 'compute_info') };
}

export const VERIFY_UPGRADE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['challenge', 'signature', 'public_key_hex'],
  properties: {
    challenge: { type: 'string', pattern: HEX64.source },
    signature: { type: 'string', pattern: '^[0-9a-f]{128}$', description: 'Ed25519 by the master key over the challenge text (its 64 hex characters, UTF-8)' },
    public_key_hex: { type: 'string', pattern: HEX64.source },
  },
};
export function verifyUpgradeRequest(raw: unknown) {
  const b = record(raw);
  const field = (name: string, pattern: RegExp) => {
    const v = b[name];
    if (typeof v !== 'string' || !pattern.test(v)) throw invalid(`${name} is required: ${pattern.source}`);
    return v;
  };
  return { challenge: field('challenge', HEX64), signature: field('signature', /^[0-9a-f]{128}$/), publicKeyHex: field('public_key_hex', HEX64) };
}

// ---- /api/provision ---------------------------------------------------------

const HOST = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$|^\[?[0-9A-Fa-f:.]{2,45}\]?$/;
const SSH_USER = /^[a-z_][a-z0-9_-]{0,31}$/;
const KEY_PATH = /^[A-Za-z0-9_./~-]{1,256}$/;
const PEER = /^https?:\/\/[A-Za-z0-9.:[\]-]{1,253}(?::\d{1,5})?\/?$/;

export const DEPLOY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['target_host'],
  properties: {
    target_host: { type: 'string', pattern: HOST.source },
    ssh_user: { type: 'string', pattern: SSH_USER.source, default: 'root' },
    ssh_key_path: { type: 'string', pattern: KEY_PATH.source },
    join_peer: { type: 'string', pattern: PEER.source },
    backend_port: { type: 'integer', minimum: 1, maximum: 65535, default: 6777 },
    no_vision: { type: 'boolean' },
    no_llm: { type: 'boolean' },
    provisioned_by: { type: 'string', description: 'ignored: the signed-in admin' },
  },
};

export function deployRequest(raw: unknown): DeployRequest {
  const b = record(raw);
  const host = b.target_host;
  if (host === undefined || host === null || host === '') throw invalid('target_host is required');
  if (typeof host !== 'string' || !HOST.test(host)) throw invalid('target_host must be a host name or an IP address');
  const user = b.ssh_user ?? 'root';
  if (typeof user !== 'string' || !SSH_USER.test(user)) throw invalid('ssh_user must be a user name (lower-case letters, digits, _ or -)');
  const key = b.ssh_key_path ?? null;
  if (key !== null && (typeof key !== 'string' || !KEY_PATH.test(key))) throw invalid('ssh_key_path must be a path of letters, digits and _ . / ~ -');
  const peer = b.join_peer ?? null;
  if (peer !== null && (typeof peer !== 'string' || !PEER.test(peer))) throw invalid('join_peer must be an http(s) URL of a host and port');
  const port = b.backend_port ?? 6777;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) throw invalid('backend_port must be a whole number from 1 to 65535');
  const flag = (name: string): boolean => {
    const v = b[name] ?? false;
    if (typeof v !== 'boolean') throw invalid(`${name} must be true or false`);
    return v;
  };
  return { target_host: host, ssh_user: user, ssh_key_path: key, join_peer: peer, backend_port: port, no_vision: flag('no_vision'), no_llm: flag('no_llm') };
}

export const PREFLIGHT_SCHEMA: JsonSchema = { type: 'object', required: ['target_host'], properties: { target_host: DEPLOY_SCHEMA.properties && (DEPLOY_SCHEMA.properties as Record<string, unknown>).target_host, ssh_user: { type: 'string' }, ssh_key_path: { type: 'string' } } };

/** A provision record id from the path: a whole number, or 404 (`Node not found`). */
export function provisionId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw new DomainError('not_found', 'Node not found');
  return Number(raw);
}

const SUBNET = /^(\d{1,3}\.){3}\d{1,3}\/\d{1,2}$/;
export const SCAN_SCHEMA: JsonSchema = { type: 'object', properties: { subnet: { type: 'string', pattern: SUBNET.source } } };
export function scanSubnet(raw: unknown): string | null {
  const subnet = record(raw).subnet ?? null;
  if (subnet === null || subnet === '') return null;
  if (typeof subnet !== 'string' || !SUBNET.test(subnet)) throw invalid('subnet must be an IPv4 CIDR such as 192.168.1.0/24');
  return subnet;
}
