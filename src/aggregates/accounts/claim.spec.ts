import { createHash } from 'node:crypto';
import { deciderKit } from '../../../test/support/decider-kit';
import { claimDecider, claimStreamId, type ClaimEvent, legacyEmailClaimStreamId } from './claim';

const now = new Date('2026-11-22T10:00:00.000Z');
const { given } = deciderKit(claimDecider('username'), now);
const claimed = (owner: string): ClaimEvent => ({
  type: 'UsernameClaimed',
  data: { value: 'alice', owner_id: owner, claimed_at: '2026-11-22T09:00:00.000Z' },
});
const released = (owner: string): ClaimEvent => ({ type: 'UsernameReleased', data: { value: 'alice', owner_id: owner } });

describe('claim', () => {
  it('given no claim, when claiming, then the normalised value is claimed for the owner', () =>
    given()
      .when({ kind: 'claim', value: ' Alice ', ownerId: 'u1' })
      .then({ type: 'UsernameClaimed', data: { value: 'alice', owner_id: 'u1', claimed_at: now.toISOString() } }));

  it('given a claim by someone else, when claiming, then it is refused as a conflict', () =>
    given(claimed('u1')).when({ kind: 'claim', value: 'alice', ownerId: 'u2' }).thenRefused('conflict', 'Username already taken'));

  it('given a claim by the same owner, when claiming again, then nothing happens (idempotent)', () =>
    given(claimed('u1')).when({ kind: 'claim', value: 'alice', ownerId: 'u1' }).thenNothing());

  it('given an abandoned claim, when taking it over from that owner, then the new owner claims it', () =>
    given(claimed('u1'))
      .when({ kind: 'claim', value: 'alice', ownerId: 'u2', takeOverAbandonedFrom: 'u1' })
      .then({ type: 'UsernameClaimed', data: { value: 'alice', owner_id: 'u2', claimed_at: now.toISOString() } }));

  it('given a released claim, when someone else claims, then it is theirs', () =>
    given(claimed('u1'), released('u1'))
      .when({ kind: 'claim', value: 'alice', ownerId: 'u2' })
      .then({ type: 'UsernameClaimed', data: { value: 'alice', owner_id: 'u2', claimed_at: now.toISOString() } }));

  it('given a claim, then the state names its owner and when it was claimed', () =>
    expect(given(claimed('u1')).state()).toEqual({ status: 'claimed', owner: 'u1', claimedAt: '2026-11-22T09:00:00.000Z' }));

  it('given a released claim, then the value is free', () => expect(given(claimed('u1'), released('u1')).state()).toEqual({ status: 'free' }));

  it('given a claim by someone else, when a stranger releases it, then nothing happens', () =>
    given(claimed('u1')).when({ kind: 'release', value: 'alice', ownerId: 'u2' }).thenNothing());

  it('names streams by scope and normalised value', () => {
    expect(claimStreamId('username', ' Bob ')).toBe('usernameClaim-bob');
  });

  it('names an e-mail claim by the SHA-256 of the normalised address, never the address (stream ids are not sealed)', () => {
    const id = claimStreamId('email', ' Bob@Example.COM ');
    expect(id).toBe(`emailClaim-${createHash('sha256').update('bob@example.com').digest('hex')}`);
    expect(legacyEmailClaimStreamId(' Bob@Example.COM ')).toBe('emailClaim-bob@example.com');
  });
});
