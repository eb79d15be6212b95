import { deciderKit } from '../../../test/support/decider-kit';
import {
  type Challenge,
  challengeDecider,
  challengeEntryDecider,
  type ChallengeEntryEvent,
  DEFAULT_TARGET,
  NOT_ACTIVE,
  NOT_COMPLETED,
  rotatingChallenge,
  rotatingChallenges,
  targetOf,
} from './challenges';

const now = new Date('2026-12-09T10:00:00.000Z'); // a Wednesday
const at = now.toISOString();

describe('rotating challenges', () => {
  it('given an instant, then today’s and this week’s (from Monday) are active, with windows from the UTC date', () => {
    const [daily, weekly] = rotatingChallenges(now);
    expect(daily).toMatchObject({ id: 'daily-2026-12-09', challenge_type: 'daily', starts_at: '2026-12-09T00:00:00.000Z', ends_at: '2026-12-09T23:59:59.999Z', created_by: null });
    expect(weekly).toMatchObject({ id: 'weekly-2026-12-07', challenge_type: 'weekly', starts_at: '2026-12-07T00:00:00.000Z', ends_at: '2026-12-13T23:59:59.999Z' });
  });

  it('given the same day twice, then the same challenges (deterministic); another day, another daily', () => {
    expect(rotatingChallenges(new Date('2026-12-09T23:00:00Z'))).toEqual(rotatingChallenges(now));
    expect(rotatingChallenges(new Date('2026-12-10T00:00:00Z'))[0].id).toBe('daily-2026-12-10');
    expect(rotatingChallenges(new Date('2026-12-13T23:59:59Z'))[1].id).toBe('weekly-2026-12-07');
    expect(rotatingChallenges(new Date('2026-12-14T00:00:00Z'))[1].id).toBe('weekly-2026-12-14');
  });

  it('given an id, then rotatingChallenge gives the challenge back; a date that is no day, or a weekly not on a Monday, is none', () => {
    const [daily, weekly] = rotatingChallenges(now);
    expect(rotatingChallenge(daily.id)).toEqual(daily);
    expect(rotatingChallenge(weekly.id)).toEqual(weekly);
    for (const id of ['daily-2026-02-30', 'weekly-2026-12-09', 'daily-2026-1-1', 'monthly-2026-12-01']) expect(rotatingChallenge(id)).toBeNull();
  });

  it('then the target is the criteria’s, default 10', () => {
    expect(targetOf({ criteria: { target: 3 } })).toBe(3);
    expect(targetOf({ criteria: {} })).toBe(DEFAULT_TARGET);
  });
});

const challenge: Challenge = {
  id: 'ch_1',
  title: 'T',
  description: '',
  challenge_type: 'special',
  criteria: { target: 3 },
  reward_pulse: 1,
  reward_spark: 20,
  reward_signal: 0,
  reward_xp: 40,
  starts_at: '2026-12-01T00:00:00.000Z',
  ends_at: '2026-12-31T00:00:00.000Z',
  created_by: 'admin',
  created_at: '2026-12-01T00:00:00.000Z',
};
const key = { challenge_id: 'ch_1', user_id: 'ann' };
const joined: ChallengeEntryEvent = { type: 'ChallengeJoined', data: { ...key, target: 3, reward_pulse: 1, reward_spark: 20, reward_signal: 0, reward_xp: 40, joined_at: at } };
const progressed = (increment: number, progress: number): ChallengeEntryEvent => ({ type: 'ChallengeProgressed', data: { ...key, increment, progress, target: 3, at } });
const completed: ChallengeEntryEvent = { type: 'ChallengeCompleted', data: { ...key, completed_at: at } };
const progress = (increment = 1) => ({ kind: 'progress', challenge, userId: 'ann', increment }) as const;
const claim = { kind: 'claim', challengeId: 'ch_1', userId: 'ann' } as const;

describe('a challenge entry', () => {
  const { given } = deciderKit(challengeEntryDecider, now);

  it('given no entry, when progressing, then the user joins with the target and rewards and progresses', () => given().when(progress()).then(joined, progressed(1, 1)));

  it('given progress 2 of 3, when progressing by 5, then progress stops at the target and the challenge completes', () =>
    given(joined, progressed(2, 2)).when(progress(5)).then(progressed(5, 3), completed));

  it('given a completed challenge, when progressing, then nothing is recorded', () => given(joined, progressed(3, 3), completed).when(progress()).thenNothing());

  it('given a challenge outside its window, when progressing, then it is refused', () =>
    given().when(progress(), new Date('2027-01-01T00:00:00Z')).thenRefused('invalid', NOT_ACTIVE));

  it('when progressing by a non-positive or fractional increment, then it is refused', () => {
    given().when(progress(0)).thenRefused('invalid');
    given().when(progress(1.5)).thenRefused('invalid');
  });

  it('given a completed challenge, when claimed, then the rewards are claimed once; a second claim records nothing', () => {
    const claimed: ChallengeEntryEvent = { type: 'ChallengeRewardClaimed', data: { ...key, pulse: 1, spark: 20, signal: 0, xp: 40, claimed_at: at } };
    given(joined, progressed(3, 3), completed).when(claim).then(claimed);
    given(joined, progressed(3, 3), completed, claimed).when(claim).thenNothing();
  });

  it('given no entry or one not completed, when claimed, then it is refused as not found', () => {
    given().when(claim).thenRefused('not_found', NOT_COMPLETED);
    given(joined, progressed(1, 1)).when(claim).thenRefused('not_found', NOT_COMPLETED);
  });
});

describe('a challenge created by an admin', () => {
  const { given } = deciderKit(challengeDecider, now);
  const { created_at: _, ...fields } = challenge;

  it('when created, then ChallengeCreated with the creation time; created again, refused', () => {
    given().when({ kind: 'create', challenge: fields }).then({ type: 'ChallengeCreated', data: { ...fields, created_at: at } });
    given({ type: 'ChallengeCreated', data: challenge }).when({ kind: 'create', challenge: fields }).thenRefused('conflict');
  });

  it('when its window ends before it starts, then it is refused', () =>
    given().when({ kind: 'create', challenge: { ...fields, ends_at: fields.starts_at } }).thenRefused('invalid', 'ends_at must be after starts_at'));
});
