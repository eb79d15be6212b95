/**
 * A unique value (a username, an e-mail address, a device id) owned by at most
 * one user. Each value has its own stream (`usernameClaim-<key>`, ...), so two
 * requests claiming it at once serialize on the stream's revision and exactly
 * one wins (DESIGN.md §3: an invariant lives inside one consistency boundary).
 */
import { createHash } from 'node:crypto';
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export type ClaimScope = 'username' | 'email' | 'device' | 'handle';
const CAPITALISED = { username: 'Username', email: 'Email', device: 'Device', handle: 'Handle' } as const;
type Capitalised = (typeof CAPITALISED)[ClaimScope];

export type ClaimEvent =
  | { type: `${Capitalised}Claimed`; data: { value: string; owner_id: string; claimed_at: string } }
  | { type: `${Capitalised}Released`; data: { value: string; owner_id: string } };

/** Nobody holds the value, or one owner does since `claimedAt`. */
export type ClaimState = { status: 'free' } | { status: 'claimed'; owner: string; claimedAt: string };

export type ClaimCommand =
  | {
      kind: 'claim';
      value: string;
      ownerId: string;
      /**
       * The caller checked that the current owner never finished registering
       * (its user stream does not exist) and the claim is older than the
       * registration timeout: the value may be taken over.
       */
      takeOverAbandonedFrom?: string;
    }
  | { kind: 'release'; value: string; ownerId: string };

/**
 * Stream id of the claim on `value`: the value is normalised (trimmed,
 * lower-cased). An e-mail address is personal data and stream ids are never
 * sealed (personal-data.ts): its claim stream is named by the address's
 * SHA-256 instead.
 */
export function claimStreamId(scope: ClaimScope, value: string): string {
  const key = normaliseClaimValue(value);
  return `${scope}Claim-${scope === 'email' ? createHash('sha256').update(key).digest('hex') : key}`;
}

/** Where logs written before e-mail claims were digested hold an address's claim (Claims checks it too). */
export function legacyEmailClaimStreamId(value: string): string {
  return `emailClaim-${normaliseClaimValue(value)}`;
}

export function normaliseClaimValue(value: string): string {
  return value.trim().toLowerCase();
}

export function claimEventTypes(scope: ClaimScope): { claimed: string; released: string } {
  return { claimed: `${CAPITALISED[scope]}Claimed`, released: `${CAPITALISED[scope]}Released` };
}

export const TAKEN_MESSAGES: Record<ClaimScope, string> = {
  username: 'Username already taken',
  email: 'Email already registered',
  device: 'Device already registered',
  handle: 'Handle already taken',
};

export function claimDecider(scope: ClaimScope): Decider<ClaimState, ClaimCommand, ClaimEvent> {
  const types = claimEventTypes(scope);
  return {
    initialState: { status: 'free' },
    evolve(state, event) {
      if (event.type === types.claimed) {
        return { status: 'claimed', owner: event.data.owner_id, claimedAt: (event.data as { claimed_at: string }).claimed_at };
      }
      if (event.type === types.released) return { status: 'free' };
      return state;
    },
    decide(command, state, now) {
      switch (command.kind) {
        case 'claim': {
          if (state.status === 'claimed' && state.owner === command.ownerId) return [];
          if (state.status === 'claimed' && state.owner !== command.takeOverAbandonedFrom) {
            throw new DomainError('conflict', TAKEN_MESSAGES[scope]);
          }
          return [
            {
              type: types.claimed as ClaimEvent['type'],
              data: { value: normaliseClaimValue(command.value), owner_id: command.ownerId, claimed_at: now.toISOString() },
            } as ClaimEvent,
          ];
        }
        case 'release':
          if (state.status !== 'claimed' || state.owner !== command.ownerId) return [];
          return [
            {
              type: types.released as ClaimEvent['type'],
              data: { value: normaliseClaimValue(command.value), owner_id: command.ownerId },
            } as ClaimEvent,
          ];
        default:
          return assertNever(command);
      }
    },
  };
}
