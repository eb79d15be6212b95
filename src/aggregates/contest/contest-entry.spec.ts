import { deciderKit } from '../../../test/support/decider-kit';
import { type ContestEntryCommand, contestEntryDecider, type ContestEntryEvent } from './contest-entry';

const now = new Date('2026-04-10T10:00:00.000Z');
const endsAt = new Date('2026-05-01T00:00:00.000Z');
const { given } = deciderKit(contestEntryDecider, now);

const join = (track: ContestEntryCommand['track']): ContestEntryCommand => ({ kind: 'join', userId: 'u1', track, endsAt });
const joined: ContestEntryEvent = { type: 'ContestJoined', data: { user_id: 'u1', track: 'digital', joined_at: '2026-04-02T00:00:00.000Z' } };

describe('contest entry', () => {
  it('given no entry, when joining, then ContestJoined records the track and time', () =>
    given()
      .when(join('embodied'))
      .then({ type: 'ContestJoined', data: { user_id: 'u1', track: 'embodied', joined_at: now.toISOString() } }));

  it('given an entry, when joining again on the same track, then nothing is recorded', () => given(joined).when(join('digital')).thenNothing());

  it('given an entry, when joining on another track, then nothing is recorded', () => given(joined).when(join('human_wellness')).thenNothing());

  it('given an entry, when joining on another track, then the first track stays', () =>
    expect(given(joined).when(join('human_wellness')).state()).toEqual({
      status: 'joined',
      userId: 'u1',
      track: 'digital',
      joinedAt: '2026-04-02T00:00:00.000Z',
    }));

  it('given no entry, when joining at the end, then it is refused: contest has ended', () =>
    given().when(join('digital'), endsAt).thenRefused('conflict', 'contest has ended'));

  it('given an entry, when repeating after the end, then the receipt still stands', () => given(joined).when(join('digital'), endsAt).thenNothing());
});
