/**
 * Random parts of ids (sightings, matches, chat turns), drawn from a pool of
 * cryptographically secure bytes refilled 8 KiB at a time, the way Node's
 * randomUUID does: one system call per few hundred ids instead of one each
 * (it showed at 3% of a sighting's CPU). The bytes are as unguessable as
 * randomBytes' own; secrets (keys, signing secrets) still take randomBytes.
 */
import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 8192;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/** `bytes` random bytes as lowercase hex (2 characters a byte). */
export function randomHex(bytes: number): string {
  if (bytes > POOL_SIZE) throw new RangeError(`randomHex: at most ${POOL_SIZE} bytes`);
  if (offset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  // never hand the same bytes out twice
  pool.fill(0, offset, offset + bytes);
  offset += bytes;
  return hex;
}
