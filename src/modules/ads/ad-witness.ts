/**
 * A peer node's witness of an ad charge (social-routes §16, §20): the
 * integrity co-signature. The serving node chooses an impression id and a
 * fresh nonce, asks a peer (POST /integrity/witness-impression) to co-sign
 * `{ad_id, impression_id, node_id, nonce, timestamp}`, and the client sends
 * the answer's `witness` statement and `witness_signature` with the charge.
 *
 * The witness counts when the serving node is named and is the statement's
 * requester, the witness is another node whose key this node trusts (its
 * own, TRUSTED_NODE_KEYS, an approved federation node: the integrity module's
 * key directory) and is not banned, the statement names this ad, it was
 * co-signed less than 60 s ago (§20's window), and the signature verifies
 * (src/modules/integrity/witness.ts). A witness that does not count is not a
 * refusal: the charge is unwitnessed (50%). A nonce that already witnessed a
 * charge is refused (409): a co-signature pays once.
 */
import { DomainError } from '../../aggregates/shared/domain-error';
import type { NodeKeyDirectory, NonceStore } from '../../infrastructure/node-identity/signed-request';
import { verifyWitnessCoSignature, WITNESS_MAX_AGE_MS, type WitnessCoSignature } from '../integrity/witness';

export const WITNESS_NONCE_REUSED = 'Witness nonce already used';

/** The part of a POST /integrity/witness-impression answer a charge carries. */
export type PresentedWitness = Pick<WitnessCoSignature, 'witness' | 'witness_signature'>;

/** Whether the witness counts; throws 409 when its nonce already witnessed a charge. */
export async function witnessCounts(
  charge: { adId: string; nodeId: string | null; witness: PresentedWitness | null },
  options: { keys: NodeKeyDirectory; nonces: NonceStore; isBanned(nodeId: string): Promise<boolean>; now: number },
): Promise<boolean> {
  const { witness, nodeId } = charge;
  if (!witness || !nodeId) return false;
  const statement = witness.witness;
  const witnessNodeId = statement.witness_node_id;
  if (witnessNodeId === nodeId) return false;
  const at = Date.parse(statement.witnessed_at);
  if (Number.isNaN(at) || Math.abs(options.now - at) > WITNESS_MAX_AGE_MS) return false;
  const key = await options.keys.publicKeyOf(witnessNodeId);
  if (!key || (await options.isBanned(witnessNodeId))) return false;
  const expected = { impression_id: statement.impression_id, ad_id: charge.adId, nonce: statement.nonce, requester_node_id: nodeId };
  if (!verifyWitnessCoSignature(witness, expected, key, witnessNodeId)) return false;
  // remembered as long as the co-signature could pass the age check
  if (!(await options.nonces.claim(nodeId, `ad-witness:${statement.nonce}`, options.now + 2 * WITNESS_MAX_AGE_MS))) {
    throw new DomainError('conflict', WITNESS_NONCE_REUSED);
  }
  return true;
}
