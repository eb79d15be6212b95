/**
 * The codes a user's referral code is drawn from: attempt 0, 1, 2, ... of a
 * hash of the user id, 8 characters of A–Z and 0–9. The same user always
 * tries the same codes in the same order, so concurrent first calls of one
 * user open the same code stream and make one code; a code another user
 * already holds is a conflict there, and the next attempt is tried.
 */
import { createHash } from 'node:crypto';
import { CODE_ALPHABET, CODE_LENGTH } from '../../aggregates/referrals/referral-code';

export const CODE_ATTEMPTS = 8;

export function candidateCode(userId: string, attempt: number): string {
  const digest = createHash('sha256').update(`referral-code:${userId}:${attempt}`).digest();
  let code = '';
  // 8 of the 32 bytes, each read modulo 36 (a bias of under 1 in 7 toward the first 4 characters: no matter for a referral code)
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[digest[i] % CODE_ALPHABET.length];
  return code;
}
