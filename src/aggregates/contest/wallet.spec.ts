import { DomainError } from '../shared/domain-error';
import { type WalletCommand, walletDecider, type WalletEvent } from './wallet';

const now = new Date('2026-04-10T10:00:00.000Z');
const given = (...events: WalletEvent[]) => events.reduce(walletDecider.evolve, walletDecider.initialState);
const award = (extra: Partial<WalletCommand> = {}): WalletCommand => ({
  kind: 'award',
  userId: 'u1',
  tracks: { digital: 25, human_wellness: 15 },
  sourceType: 'ScoringEventReported',
  sourceId: 'benchmarks_proven:b1',
  reason: 'benchmarks_proven',
  ...extra,
});

describe('wallet', () => {
  const [first] = walletDecider.decide(award(), given(), now);

  it('given an empty wallet, when awarding, then SparkAwarded carries the sum, the tracks and the source', () => {
    expect(first).toEqual({
      type: 'SparkAwarded',
      data: {
        user_id: 'u1',
        amount: 40,
        tracks: { digital: 25, human_wellness: 15 },
        source_type: 'ScoringEventReported',
        source_id: 'benchmarks_proven:b1',
        reason: 'benchmarks_proven',
        awarded_at: now.toISOString(),
      },
    });
    expect(given(first).seasonSpark).toBe(40);
  });

  it('given an award from a source, when the same source is awarded again (redelivery), then nothing is recorded', () => {
    expect(walletDecider.decide(award(), given(first), now)).toEqual([]);
    expect(walletDecider.decide(award({ tracks: { digital: 999 } }), given(first), now)).toEqual([]);
  });

  it('given an award, when another source is awarded, then the balance adds up', () => {
    const [second] = walletDecider.decide(award({ sourceId: 'recipe_published:r1', tracks: { digital: 100 } }), given(first), now);
    expect(given(first, second).seasonSpark).toBe(140);
  });

  it('the same source id under another source type is another source', () => {
    expect(walletDecider.decide(award({ sourceType: 'ContestJoined' }), given(first), now)).toHaveLength(1);
  });

  it.each([
    ['no points', { tracks: {} }],
    ['zero points', { tracks: { digital: 0 } }],
    ['negative points', { tracks: { digital: -5 } }],
    ['fractional points', { tracks: { digital: 1.5 } }],
    ['no source', { sourceId: '' }],
  ])('given %s, when awarding, then it is refused as invalid', (_, extra) => {
    expect(() => walletDecider.decide(award(extra as Partial<WalletCommand>), given(), now)).toThrow(DomainError);
  });
});
