/**
 * Signed node-to-node requests (issue 17): the sender adds four headers,
 *
 *   x-node-id          its node id
 *   x-node-timestamp   Unix time in milliseconds
 *   x-node-nonce       16 to 64 characters of [A-Za-z0-9_-], fresh per request
 *   x-node-signature   Ed25519 signature (hex) of the canonical text below
 *
 * over the canonical text (lines joined by "\n"):
 *
 *   svc-node-request/1
 *   <node id>
 *   <METHOD>
 *   <path with its query string, as sent>
 *   <sha256 hex of the body bytes; of the empty string without a body>
 *   <timestamp>
 *   <nonce>
 *
 * The receiver refuses a request whose timestamp is further than the
 * allowed skew from its clock, whose node has no registered key, whose
 * signature does not verify, or whose nonce it has seen (a captured request
 * replayed). Nonces are claimed only once the signature verified, so nobody
 * can burn another node's nonces, and they are forgotten once their
 * timestamp is out of the window (a replay that late fails on the timestamp).
 */
import { createHash, randomBytes } from 'node:crypto';
import { type NodeKey, verifySignature } from './node-key';

export const NODE_ID_HEADER = 'x-node-id';
export const NODE_TIMESTAMP_HEADER = 'x-node-timestamp';
export const NODE_NONCE_HEADER = 'x-node-nonce';
export const NODE_SIGNATURE_HEADER = 'x-node-signature';

const NONCE = /^[A-Za-z0-9_-]{16,64}$/;
const NODE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export interface RequestToSign {
  method: string;
  /** path and query string, exactly as sent */
  path: string;
  body?: string | Buffer | null;
}

export function bodyHash(body: string | Buffer | null | undefined): string {
  return createHash('sha256')
    .update(body ?? '')
    .digest('hex');
}

export function canonicalRequest(nodeId: string, request: RequestToSign, timestamp: number | string, nonce: string): string {
  return ['svc-node-request/1', nodeId, request.method.toUpperCase(), request.path, bodyHash(request.body), String(timestamp), nonce].join('\n');
}

/** The headers that sign `request` as `nodeId` now. */
export function signRequest(key: NodeKey, nodeId: string, request: RequestToSign, now = Date.now()): Record<string, string> {
  const nonce = randomBytes(16).toString('base64url');
  return {
    [NODE_ID_HEADER]: nodeId,
    [NODE_TIMESTAMP_HEADER]: String(now),
    [NODE_NONCE_HEADER]: nonce,
    [NODE_SIGNATURE_HEADER]: key.sign(canonicalRequest(nodeId, request, now, nonce)),
  };
}

/** Remembers nonces for as long as their request could still pass the timestamp check. */
export interface NonceStore {
  /** false when the nonce was already claimed for this node (a replay) */
  claim(nodeId: string, nonce: string, forgetAfterMs: number): Promise<boolean>;
}

/** Where the keys of other nodes are looked up. */
export interface NodeKeyDirectory {
  /** the registered public key (hex) of a node, or null */
  publicKeyOf(nodeId: string): Promise<string | null>;
}

export type Refusal = 'missing_headers' | 'malformed_headers' | 'stale_timestamp' | 'unknown_node' | 'bad_signature' | 'replayed_nonce';

export type VerifiedRequest = { ok: true; nodeId: string } | { ok: false; refusal: Refusal; message: string };

export interface VerifyOptions {
  keys: NodeKeyDirectory;
  nonces: NonceStore;
  now: number;
  /** how far the timestamp may be from `now`, either way */
  maxSkewMs: number;
}

const refuse = (refusal: Refusal, message: string): VerifiedRequest => ({ ok: false, refusal, message });

export async function verifySignedRequest(
  request: RequestToSign & { headers: Record<string, string | string[] | undefined> },
  options: VerifyOptions,
): Promise<VerifiedRequest> {
  const header = (name: string) => request.headers[name];
  const [nodeId, timestamp, nonce, signature] = [NODE_ID_HEADER, NODE_TIMESTAMP_HEADER, NODE_NONCE_HEADER, NODE_SIGNATURE_HEADER].map(header);
  if (nodeId === undefined || timestamp === undefined || nonce === undefined || signature === undefined) {
    return refuse('missing_headers', 'Node signature required (x-node-id, x-node-timestamp, x-node-nonce, x-node-signature)');
  }
  if (typeof nodeId !== 'string' || !NODE_ID.test(nodeId) || typeof timestamp !== 'string' || !/^\d{1,16}$/.test(timestamp) || typeof nonce !== 'string' || !NONCE.test(nonce) || typeof signature !== 'string') {
    return refuse('malformed_headers', 'Malformed node signature headers');
  }
  const sentAt = Number(timestamp);
  if (Math.abs(options.now - sentAt) > options.maxSkewMs) return refuse('stale_timestamp', 'Node signature timestamp outside the allowed window');
  const publicKey = await options.keys.publicKeyOf(nodeId);
  if (!publicKey) return refuse('unknown_node', 'Unknown node');
  if (!verifySignature(publicKey, canonicalRequest(nodeId, request, timestamp, nonce), signature)) return refuse('bad_signature', 'Invalid node signature');
  if (!(await options.nonces.claim(nodeId, nonce, sentAt + options.maxSkewMs))) return refuse('replayed_nonce', 'Replayed node request');
  return { ok: true, nodeId };
}
