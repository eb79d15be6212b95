import { DomainError } from '../shared/domain-error';
import { contestEntryDecider, type ContestEntryEvent } from './contest-entry';

const now = new Date('2026-04-10T10:00:00.000Z');
const endsAt = new Date('2026-05-01T00:00:00.000Z');
const given = (...events: ContestEntryEvent[]) => events.reduce(contestEntryDecider.evolve, contestEntryDecider.initialState);
const joined: ContestEntryEvent = { type: 'ContestJoined', data: { user_id: 'u1', track: 'digital', joined_at: '2026-04-02T00:00:00.000Z' } };

describe('contest entry', () => {
  it('given no entry, when joining, then ContestJoined records the track and time', () => {
    expect(contestEntryDecider.decide({ kind: 'join', userId: 'u1', track: 'embodied', endsAt }, given(), now)).toEqual([
      { type: 'ContestJoined', data: { user_id: 'u1', track: 'embodied', joined_at: now.toISOString() } },
    ]);
  });

  it('given an entry, when joining again on the same track, then nothing is recorded', () => {
    expect(contestEntryDecider.decide({ kind: 'join', userId: 'u1', track: 'digital', endsAt }, given(joined), now)).toEqual([]);
  });

  it('given an entry, when joining on another track, then nothing is recorded and the first track stays', () => {
    const state = given(joined);
    expect(contestEntryDecider.decide({ kind: 'join', userId: 'u1', track: 'human_wellness', endsAt }, state, now)).toEqual([]);
    expect(state.track).toBe('digital');
  });

  it('given no entry, when joining at or after the end, then 409 contest has ended', () => {
    expect(() => contestEntryDecider.decide({ kind: 'join', userId: 'u1', track: 'digital', endsAt }, given(), endsAt)).toThrow(
      new DomainError('conflict', 'contest has ended'),
    );
  });

  it('given an entry, when repeating after the end, then the receipt still stands', () => {
    expect(contestEntryDecider.decide({ kind: 'join', userId: 'u1', track: 'digital', endsAt }, given(joined), endsAt)).toEqual([]);
  });
});
