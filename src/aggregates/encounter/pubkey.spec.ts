import { createHash } from 'node:crypto';
import { deciderKit } from '../../../test/support/decider-kit';
import type { PubkeyEvent } from './encounter.events';
import { isSightablePubkey, normalisePubkey, pubkeyDecider, pubkeyDigest, type PubkeyCommand } from './pubkey';

const now = new Date('2026-06-01T10:00:00.000Z');
const digest = pubkeyDigest('a1b2c3d4e5f60718');
const { given } = deciderKit(pubkeyDecider, now);
const register = (userId: string): PubkeyCommand => ({ kind: 'register', userId, digest });
const registered = (userId: string, at = '2026-06-01T09:00:00.000Z'): PubkeyEvent => ({
  type: 'PubkeyRegistered',
  data: { user_id: userId, pubkey_digest: digest, registered_at: at },
});

describe('pubkey', () => {
  describe('decider', () => {
    it('given an unknown key, when registering, then PubkeyRegistered names the owner and time', () =>
      given().when(register('u1')).then(registered('u1', now.toISOString())));

    it('given a key of the same user, when registering again, then it is recorded again (current again)', () =>
      given(registered('u1')).when(register('u1')).then(registered('u1', now.toISOString())));

    it('given a key of another user, when registering it, then 409 pubkey already registered', () =>
      given(registered('u1')).when(register('u2')).thenRefused('conflict', 'pubkey already registered'));

    it('given a registration, then the state holds owner and time', () => {
      expect(given(registered('u1')).state()).toEqual({ status: 'registered', owner: 'u1', registeredAt: '2026-06-01T09:00:00.000Z' });
    });
  });

  describe('normalisePubkey', () => {
    it.each([
      ['16 hex digits', 'a1b2c3d4e5f60718', 'a1b2c3d4e5f60718'],
      ['upper case and spaces', '  A1B2C3D4E5F60718 ', 'a1b2c3d4e5f60718'],
      ['128 hex digits', 'f'.repeat(128), 'f'.repeat(128)],
    ])('given %s, then it is accepted lower-cased', (_label, raw, expected) => {
      expect(normalisePubkey(raw)).toBe(expected);
    });

    it.each([
      ['15 digits', 'a'.repeat(15)],
      ['129 digits', 'a'.repeat(129)],
      ['a non-hex letter', 'g'.repeat(16)],
      ['a number', 1234567890123456],
      ['null', null],
      ['inner space', 'a1b2c3d4 e5f60718'],
    ])('given %s, then it is refused (null)', (_label, raw) => {
      expect(normalisePubkey(raw)).toBeNull();
    });
  });

  describe('isSightablePubkey', () => {
    it('given a mixed-case hex key of 16 digits, then it is lower-cased', () => {
      expect(isSightablePubkey('ABCDEF0123456789')).toBe('abcdef0123456789');
    });

    it('given fewer than 16 or more than 128 digits, then it is refused', () => {
      expect(isSightablePubkey('abc')).toBeNull();
      expect(isSightablePubkey('a'.repeat(129))).toBeNull();
      expect(isSightablePubkey(undefined)).toBeNull();
    });
  });

  describe('pubkeyDigest', () => {
    it('given a key in any case, then the digest is the sha256 hex of the lower-cased key', () => {
      const expected = createHash('sha256').update('abcdef0123456789').digest('hex');
      expect(pubkeyDigest('ABCDEF0123456789')).toBe(expected);
      expect(pubkeyDigest('abcdef0123456789')).toBe(expected);
    });
  });
});
