/**
 * What a node signs for another node outside a signed request (a synced user
 * profile, social-routes §1 sync-user): the canonical JSON of a value, signed
 * with this node's one identity key (`NodeKey`, src/infrastructure/node-identity/;
 * provided once, here in CommonModule). Its public half (32 bytes, hex)
 * travels with the peer gossip, so peers pin it as this node's registered key
 * and verify against it (`verifyNodeSignature`).
 */
import { verifySignature, type NodeKey } from '../../infrastructure/node-identity/node-key';

/** JSON with object keys sorted at every level: the bytes a signature covers. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The node's Ed25519 signature (hex) of `canonicalJson(value)`. */
export function signValue(key: NodeKey, value: unknown): string {
  return key.sign(canonicalJson(value));
}

/** Whether `signatureHex` is the Ed25519 signature of `canonicalJson(value)` by `publicKeyHex` (32 bytes, hex). */
export function verifyNodeSignature(publicKeyHex: string, value: unknown, signatureHex: string): boolean {
  return verifySignature(publicKeyHex, canonicalJson(value), signatureHex);
}
