/**
 * Impression witnessing (social-routes §20, POST /integrity/witness-impression):
 * a node that served an ad impression asks a peer to co-sign it. The
 * requester signs the impression with its node key; the witness checks the
 * signature against the requester's REGISTERED key (never a key the request
 * brings), refuses a banned requester and a timestamp older than 60 s, and
 * answers with its own signature over what it witnessed.
 *
 * The texts signed, both canonical JSON (sorted keys, no spaces):
 *
 *   request:  {ad_id, impression_id, node_id, nonce, timestamp}
 *   witness:  {ad_id, impression_id, nonce, requester_node_id,
 *              requester_timestamp, witness_node_id, witnessed_at}
 *
 * A serving node builds a request with `signImpressionWitnessRequest`; the
 * ads' impression and click routes check the answer a client brings with
 * `verifyWitnessCoSignature` (src/modules/ads/ad-witness.ts). Pure: no Nest, no I/O.
 */
import { canonicalJson } from '../../infrastructure/canonical-json';
import { type NodeKey, verifySignature } from '../../infrastructure/node-identity/node-key';

/** §20: a witness request older than this is refused. */
export const WITNESS_MAX_AGE_MS = 60_000;

export interface ImpressionWitnessFields {
  node_id: string;
  /** Unix time in milliseconds (or an ISO 8601 string) when the requester signed */
  timestamp: number | string;
  impression_id: string;
  ad_id: string;
  /** fresh per request: a witness co-signs one nonce of a node once */
  nonce: string;
}

export interface ImpressionWitnessRequest extends ImpressionWitnessFields {
  /** Ed25519 (hex) by the requester's node key over `impressionWitnessText` */
  signature: string;
  /** the requester's key, informative: the witness checks against the key it has registered */
  public_key?: string;
}

export interface WitnessStatement {
  impression_id: string;
  ad_id: string;
  nonce: string;
  requester_node_id: string;
  requester_timestamp: number | string;
  witness_node_id: string;
  witnessed_at: string;
}

export interface WitnessCoSignature {
  witness: WitnessStatement;
  /** Ed25519 (hex) by the witness node's key over `canonicalJson(witness)` */
  witness_signature: string;
  witness_public_key: string;
}

export const impressionWitnessText = (f: ImpressionWitnessFields): string =>
  canonicalJson({ ad_id: f.ad_id, impression_id: f.impression_id, node_id: f.node_id, nonce: f.nonce, timestamp: f.timestamp });

/** The body of a witness request for `fields`, signed by this node's key. */
export function signImpressionWitnessRequest(key: NodeKey, fields: ImpressionWitnessFields): ImpressionWitnessRequest {
  return { ...fields, signature: key.sign(impressionWitnessText(fields)), public_key: key.publicKeyHex };
}

/** The request's time in ms, or null when it is not a time. */
export function witnessTimestampMs(timestamp: number | string): number | null {
  if (typeof timestamp === 'number') return Number.isFinite(timestamp) ? timestamp : null;
  if (/^\d{1,16}$/.test(timestamp)) return Number(timestamp);
  const parsed = Date.parse(timestamp);
  return Number.isNaN(parsed) ? null : parsed;
}

export type WitnessJudgement = { ok: true } | { ok: false; reason: string };

export const WITNESS_REASONS = {
  banned: 'Requester is banned',
  unknownNode: 'Unknown node',
  keyMismatch: 'public_key is not the key registered for node_id',
  badTimestamp: 'Invalid timestamp',
  stale: 'Timestamp is older than 60 seconds',
  future: 'Timestamp is in the future',
  missingSignature: 'Missing signature',
  badSignature: 'Invalid signature',
  replayed: 'Nonce already witnessed',
} as const;

/** Whether a witness request may be co-signed, in the order the checks are made. */
export function judgeWitnessRequest(
  request: ImpressionWitnessRequest,
  context: { registeredKey: string | null; banned: boolean; now: number; maxAgeMs?: number },
): WitnessJudgement {
  const maxAge = context.maxAgeMs ?? WITNESS_MAX_AGE_MS;
  if (context.banned) return { ok: false, reason: WITNESS_REASONS.banned };
  if (!context.registeredKey) return { ok: false, reason: WITNESS_REASONS.unknownNode };
  if (request.public_key !== undefined && request.public_key.toLowerCase() !== context.registeredKey) return { ok: false, reason: WITNESS_REASONS.keyMismatch };
  const at = witnessTimestampMs(request.timestamp);
  if (at === null) return { ok: false, reason: WITNESS_REASONS.badTimestamp };
  if (context.now - at > maxAge) return { ok: false, reason: WITNESS_REASONS.stale };
  // a clock slightly ahead is tolerated as much as one behind
  if (at - context.now > maxAge) return { ok: false, reason: WITNESS_REASONS.future };
  if (!request.signature) return { ok: false, reason: WITNESS_REASONS.missingSignature };
  if (!verifySignature(context.registeredKey, impressionWitnessText(request), request.signature)) return { ok: false, reason: WITNESS_REASONS.badSignature };
  return { ok: true };
}

/** The witness's co-signature of a request judged fit. */
export function coSign(key: NodeKey, witnessNodeId: string, request: ImpressionWitnessFields, now: Date): WitnessCoSignature {
  const witness: WitnessStatement = {
    impression_id: request.impression_id,
    ad_id: request.ad_id,
    nonce: request.nonce,
    requester_node_id: request.node_id,
    requester_timestamp: request.timestamp,
    witness_node_id: witnessNodeId,
    witnessed_at: now.toISOString(),
  };
  return { witness, witness_signature: key.sign(canonicalJson(witness)), witness_public_key: key.publicKeyHex };
}

/**
 * Whether `answer` is a valid co-signature of the impression `expected`
 * describes: the statement names that impression, ad, nonce and requester,
 * and its signature verifies with `witnessPublicKey` (the witness's
 * registered key; pass it, do not take the one in the answer on trust), and
 * the witness node is `witnessNodeId` when given.
 */
export function verifyWitnessCoSignature(
  answer: Pick<WitnessCoSignature, 'witness' | 'witness_signature'>,
  expected: { impression_id: string; ad_id: string; nonce: string; requester_node_id: string },
  witnessPublicKey: string,
  witnessNodeId?: string,
): boolean {
  const w = answer?.witness;
  if (!w || typeof answer.witness_signature !== 'string') return false;
  if (w.impression_id !== expected.impression_id || w.ad_id !== expected.ad_id || w.nonce !== expected.nonce || w.requester_node_id !== expected.requester_node_id) return false;
  if (witnessNodeId !== undefined && w.witness_node_id !== witnessNodeId) return false;
  return verifySignature(witnessPublicKey, canonicalJson(w), answer.witness_signature);
}
