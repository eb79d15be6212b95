/**
 * A rotating public key (stream `encounterPubkey-<digest>`, SPEC §2.6, §4.7
 * rules 6 and 10). The stream is named by the SHA-256 of the lower-cased hex,
 * so the raw key is never stored. A key belongs to the first user who
 * registers it: another user registering it is a conflict, so nobody can take
 * over someone else's phone. The same owner may register it again; that
 * appends a new PubkeyRegistered and makes it that user's current key again.
 */
import { createHash } from 'node:crypto';
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';
import type { PubkeyEvent } from './encounter.events';

/** Never registered, or registered by its owner (last at `registeredAt`). */
export type PubkeyState = { status: 'none' } | { status: 'registered'; owner: string; registeredAt: string };

export type PubkeyCommand = { kind: 'register'; userId: string; digest: string };

const PUBKEY_HEX = /^[0-9a-f]{16,128}$/;

function hexKey(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim().toLowerCase();
  return PUBKEY_HEX.test(value) ? value : null;
}

/** register-pubkey: a string of 16..128 hex digits, trimmed and lower-cased; null when invalid. */
export function normalisePubkey(raw: unknown): string | null {
  return hexKey(raw);
}

/**
 * The sighting's peer_pubkey: hex, at least 16 digits, lower-cased. SPEC §4.7
 * sets no upper bound for sightings; no registered key is longer than 128, so
 * longer values are refused as invalid too.
 */
export function isSightablePubkey(raw: unknown): string | null {
  return hexKey(raw);
}

/** SHA-256 (hex) of the lower-cased key: the stream id part and the only form stored. */
export function pubkeyDigest(hex: string): string {
  return createHash('sha256').update(hex.toLowerCase(), 'utf8').digest('hex');
}

export const pubkeyDecider: Decider<PubkeyState, PubkeyCommand, PubkeyEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'PubkeyRegistered':
        return { status: 'registered', owner: event.data.user_id, registeredAt: event.data.registered_at };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'register':
        if (state.status === 'registered' && state.owner !== command.userId) {
          throw new DomainError('conflict', 'pubkey already registered');
        }
        return [
          {
            type: 'PubkeyRegistered',
            data: { user_id: command.userId, pubkey_digest: command.digest, registered_at: now.toISOString() },
          },
        ];
      default:
        return assertNever(command.kind);
    }
  },
};
