import { deciderKit } from '../../../test/support/decider-kit';
import { joinAward, type SparkAwarded, type WalletCommand, walletDecider, type WalletEvent } from './wallet';

const now = new Date('2026-04-10T10:00:00.000Z');
const { given } = deciderKit(walletDecider, now);

const award = (extra: Partial<Extract<WalletCommand, { kind: 'award' }>> = {}): WalletCommand => ({
  kind: 'award',
  userId: 'u1',
  tracks: { digital: 25, human_wellness: 15 },
  sourceType: 'ScoringEventReported',
  sourceId: 'benchmarks_proven:b1',
  reason: 'benchmarks_proven',
  ...extra,
});

const awarded = (extra: Partial<SparkAwarded['data']> = {}): WalletEvent => ({
  type: 'SparkAwarded',
  data: {
    user_id: 'u1',
    amount: 40,
    tracks: { digital: 25, human_wellness: 15 },
    source_type: 'ScoringEventReported',
    source_id: 'benchmarks_proven:b1',
    reason: 'benchmarks_proven',
    awarded_at: now.toISOString(),
    ...extra,
  },
});

describe('wallet', () => {
  it('given an empty wallet, when awarding, then SparkAwarded carries the sum, the tracks and the source', () =>
    given().when(award()).then(awarded()));

  it('given an empty wallet, when awarding, then the balance is the sum', () => expect(given().when(award()).state().seasonSpark).toBe(40));

  it('given an award from a source, when the same source is awarded again (redelivery), then nothing is recorded', () =>
    given(awarded()).when(award()).thenNothing());

  it('given an award from a source, when the same source is awarded other points, then nothing is recorded', () =>
    given(awarded()).when(award({ tracks: { digital: 999 } })).thenNothing());

  it('given an award, when another source is awarded, then the balance adds up', () =>
    expect(given(awarded()).when(award({ sourceId: 'recipe_published:r1', tracks: { digital: 100 } })).state().seasonSpark).toBe(140));

  it('given an award, when the same source id comes under another source type, then it is another source', () =>
    expect(given(awarded()).when(award({ sourceType: 'ContestJoined' })).events()).toHaveLength(1));

  it.each([
    ['no points', { tracks: {} }, 'an award must be positive'],
    ['zero points', { tracks: { digital: 0 } }, 'award points must be positive integers'],
    ['negative points', { tracks: { digital: -5 } }, 'award points must be positive integers'],
    ['fractional points', { tracks: { digital: 1.5 } }, 'award points must be positive integers'],
    ['no source', { sourceId: '' }, 'an award needs a source'],
  ])('given an empty wallet, when awarding %s, then it is refused as invalid', (_, extra, message) =>
    given().when(award(extra as Partial<Extract<WalletCommand, { kind: 'award' }>>)).thenRefused('invalid', message));

  it('given an empty wallet, when the join award is paid, then 1 spark on the joined track, its source the user', () =>
    given()
      .when({ kind: 'award', ...joinAward('u9', 'embodied') })
      .then({
        type: 'SparkAwarded',
        data: {
          user_id: 'u9',
          amount: 1,
          tracks: { embodied: 1 },
          source_type: 'contest:joined',
          source_id: 'u9',
          reason: 'contest:joined',
          awarded_at: now.toISOString(),
        },
      }));
});

describe('wallet rewards (social-routes §21.3)', () => {
  const reward = (sourceId = 'p1'): WalletCommand => ({ kind: 'reward', userId: 'u1', action: 'create_post', amounts: { spark: 5, signal: 0.01, xp: 10 }, sourceType: 'PostPublished', sourceId });

  it('given an empty wallet, when rewarded, then RewardGranted carries the amounts and the reputation adds them', () => {
    const result = given().when(reward());
    expect(result.events()).toEqual([
      { type: 'RewardGranted', data: { user_id: 'u1', action: 'create_post', pulse: 0, spark: 5, signal: 0.01, xp: 10, source_type: 'PostPublished', source_id: 'p1', granted_at: now.toISOString() } },
    ]);
    expect(result.state().reputation).toEqual({ pulse: 0, spark: 5, signal: 0.01, xp: 10 });
    expect(result.state().seasonSpark).toBe(0);
  });

  it('given a reward for a source, when the same source is rewarded again, then nothing is recorded', () => {
    const past = given().when(reward()).events();
    given(...past).when(reward()).thenNothing();
  });
});
