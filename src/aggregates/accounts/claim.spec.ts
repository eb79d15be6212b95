import { DomainError } from '../shared/domain-error';
import { claimDecider, claimStreamId, type ClaimEvent } from './claim';

const decider = claimDecider('username');
const now = new Date('2026-11-22T10:00:00.000Z');
const given = (events: ClaimEvent[]) => events.reduce(decider.evolve, decider.initialState);
const claimed = (owner: string): ClaimEvent => ({
  type: 'UsernameClaimed',
  data: { value: 'alice', owner_id: owner, claimed_at: '2026-11-22T09:00:00.000Z' },
});

describe('claim', () => {
  it('given no claim, when claiming, then the value is claimed for the owner', () => {
    expect(decider.decide({ kind: 'claim', value: ' Alice ', ownerId: 'u1' }, given([]), now)).toEqual([
      { type: 'UsernameClaimed', data: { value: 'alice', owner_id: 'u1', claimed_at: now.toISOString() } },
    ]);
  });

  it('given a claim by someone else, when claiming, then it is refused as a conflict', () => {
    expect(() => decider.decide({ kind: 'claim', value: 'alice', ownerId: 'u2' }, given([claimed('u1')]), now)).toThrow(
      new DomainError('conflict', 'Username already taken'),
    );
  });

  it('given a claim by the same owner, when claiming again, then nothing happens (idempotent)', () => {
    expect(decider.decide({ kind: 'claim', value: 'alice', ownerId: 'u1' }, given([claimed('u1')]), now)).toEqual([]);
  });

  it('given an abandoned claim, when taking it over from that owner, then the new owner claims it', () => {
    const events = decider.decide(
      { kind: 'claim', value: 'alice', ownerId: 'u2', takeOverAbandonedFrom: 'u1' },
      given([claimed('u1')]),
      now,
    );
    expect(events[0].data.owner_id).toBe('u2');
  });

  it('given a released claim, when someone else claims, then it is theirs', () => {
    const state = given([claimed('u1'), { type: 'UsernameReleased', data: { value: 'alice', owner_id: 'u1' } }]);
    expect(decider.decide({ kind: 'claim', value: 'alice', ownerId: 'u2' }, state, now)).toHaveLength(1);
  });

  it('given a claim by someone else, when a stranger releases it, then nothing happens', () => {
    expect(decider.decide({ kind: 'release', value: 'alice', ownerId: 'u2' }, given([claimed('u1')]), now)).toEqual([]);
  });

  it('names streams by scope and normalised value', () => {
    expect(claimStreamId('email', ' Bob@Example.COM ')).toBe('emailClaim-bob@example.com');
  });
});
