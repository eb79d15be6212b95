/**
 * A sealed personal field: the value's JSON encrypted with AES-256-GCM
 * under its subject's data key, self-describing so that a reader needs no
 * catalogue to find the key: `{"$pd": {"s": subject, "p": purpose, "v":
 * version, "c": base64(iv ‖ tag ‖ ciphertext)}}`. The subject, purpose and
 * version are authenticated (GCM additional data): a sealed value moved to
 * another person's field does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { DataKey } from './key-store.port';

export interface SealedValue {
  $pd: { s: string; p: string; v: number; c: string };
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

const aad = (s: string, p: string, v: number) => Buffer.from(`${s}|${p}|${v}`);

export function isSealed(value: unknown): value is SealedValue {
  if (typeof value !== 'object' || value === null || !('$pd' in value)) return false;
  const pd = (value as SealedValue).$pd;
  return typeof pd === 'object' && pd !== null && typeof pd.s === 'string' && typeof pd.p === 'string' && typeof pd.v === 'number' && typeof pd.c === 'string';
}

export function seal(value: unknown, key: DataKey): SealedValue {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(aad(key.subject, key.purpose, key.version));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { $pd: { s: key.subject, p: key.purpose, v: key.version, c: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64') } };
}

/** The value a sealed field holds; throws when the key does not open it (a wrong key, a tampered text). */
export function open(sealed: SealedValue, key: Buffer): unknown {
  const { s, p, v, c } = sealed.$pd;
  const raw = Buffer.from(c, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(aad(s, p, v));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  return JSON.parse(text);
}

/** The sealed values anywhere inside `value`, outermost ones (a value sealed twice hides the inner seal in its ciphertext). */
export function sealedValuesIn(value: unknown): SealedValue[] {
  if (isSealed(value)) return [value];
  if (typeof value !== 'object' || value === null) return [];
  return (Array.isArray(value) ? value : Object.values(value)).flatMap(sealedValuesIn);
}
