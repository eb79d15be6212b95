/**
 * The encryption of a user's backup (docs/security.md, "Backups"):
 * AES-256-GCM under a key derived from the passphrase with scrypt
 * (node:crypto). Each backup has its own random 16-byte salt and 12-byte IV,
 * stored with the ciphertext; the user id and backup id are bound in as
 * additional authenticated data, so a file copied under another user or
 * backup fails to decrypt. A wrong passphrase or a changed byte is a GCM
 * authentication failure: `open` answers null, never throws.
 *
 * File layout: `SVCB1` (5 bytes) | salt (16) | iv (12) | tag (16) | ciphertext.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt } from 'node:crypto';
import type { KdfParams } from '../../aggregates/sync/user-backups';

const MAGIC = Buffer.from('SVCB1', 'ascii');
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + SALT_BYTES + IV_BYTES + TAG_BYTES;

/** scrypt N = 2^15, r = 8, p = 1 (32 MiB, about 0.1 s per derivation), a 32-byte key. */
export const KDF_PARAMS: KdfParams = { N: 2 ** 15, r: 8, p: 1, key_length: 32 };

function deriveKey(passphrase: string, salt: Buffer, params: KdfParams): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(passphrase.normalize('NFC'), salt, params.key_length, { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

const aadOf = (userId: string, backupId: string): Buffer => Buffer.from(`${userId}\u0000${backupId}`, 'utf8');

export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The sealed file of a plaintext. */
export async function seal(plaintext: Buffer, passphrase: string, binding: { userId: string; backupId: string }, params: KdfParams = KDF_PARAMS): Promise<Buffer> {
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const key = await deriveKey(passphrase, salt, params);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aadOf(binding.userId, binding.backupId));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([MAGIC, salt, iv, cipher.getAuthTag(), ciphertext]);
}

/** The plaintext of a sealed file, or null when the passphrase is wrong or the file was changed (GCM authentication failed). */
export async function open(file: Buffer, passphrase: string, binding: { userId: string; backupId: string }, params: KdfParams = KDF_PARAMS): Promise<Buffer | null> {
  if (file.length < HEADER_BYTES || !file.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  let offset = MAGIC.length;
  const take = (bytes: number) => file.subarray(offset, (offset += bytes));
  const salt = take(SALT_BYTES);
  const iv = take(IV_BYTES);
  const tag = take(TAG_BYTES);
  const ciphertext = file.subarray(offset);
  const key = await deriveKey(passphrase, salt, params);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aadOf(binding.userId, binding.backupId));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    return null;
  }
}
