/**
 * A peer node's witness of an ad charge (social-routes §16, §20): the
 * witness signs, with its Ed25519 node key, the text (lines joined by "\n")
 *
 *   svc-ad-witness/1
 *   <ad id>
 *   <view | click>
 *   <node id that served the ad>
 *   <user id of the viewer>
 *   <witness_timestamp: Unix time in milliseconds>
 *
 * and the client sends witness_node_id, witness_signature (hex) and
 * witness_timestamp with the impression. The witness counts when the serving
 * node is named and is not the witness, the timestamp is within the node
 * signature skew (NODE_SIGNATURE_MAX_SKEW_SECONDS) of this node's clock, the
 * witness' key is one this node trusts (its own, TRUSTED_NODE_KEYS, an
 * approved federation node: the integrity module's key directory), the
 * witness is not banned, and the signature verifies. A witness that does not
 * count is not a refusal: the impression is charged as unwitnessed (50%).
 */
import type { ImpressionType } from '../../aggregates/ads/ad-unit';
import { type NodeKey, verifySignature } from '../../infrastructure/node-identity/node-key';
import type { NodeKeyDirectory } from '../../infrastructure/node-identity/signed-request';

export interface WitnessClaim {
  adId: string;
  type: ImpressionType;
  nodeId: string | null;
  userId: string;
  witness: { nodeId: string; signature: string; timestamp: number } | null;
}

export function witnessText(adId: string, type: ImpressionType, nodeId: string, userId: string, timestamp: number): string {
  return ['svc-ad-witness/1', adId, type, nodeId, userId, String(timestamp)].join('\n');
}

/** What a witness node signs (tests and peers). */
export function signWitness(key: NodeKey, claim: { adId: string; type: ImpressionType; nodeId: string; userId: string; timestamp: number }): string {
  return key.sign(witnessText(claim.adId, claim.type, claim.nodeId, claim.userId, claim.timestamp));
}

export async function witnessVerified(
  claim: WitnessClaim,
  options: { keys: NodeKeyDirectory; isBanned(nodeId: string): Promise<boolean>; now: number; maxSkewMs: number },
): Promise<boolean> {
  const { witness, nodeId } = claim;
  if (!witness || !nodeId || witness.nodeId === nodeId) return false;
  if (Math.abs(options.now - witness.timestamp) > options.maxSkewMs) return false;
  const key = await options.keys.publicKeyOf(witness.nodeId);
  if (!key || (await options.isBanned(witness.nodeId))) return false;
  return verifySignature(key, witnessText(claim.adId, claim.type, nodeId, claim.userId, witness.timestamp), witness.signature);
}
