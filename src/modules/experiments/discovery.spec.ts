import { discoveryScore, NO_VIEWER, type ScoredExperiment, STATUS_WEIGHTS } from './discovery';

const now = new Date('2026-12-07T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000).toISOString();
const experiment = (extra: Partial<ScoredExperiment> = {}): ScoredExperiment => ({
  status: 'proposed',
  intent_category: 'health',
  created_at: now.toISOString(),
  contributor_count: 0,
  total_votes: 0,
  funding_total: 0,
  creator_id: 'ann',
  ...extra,
});
const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

describe('the experiment discovery score (§21.1)', () => {
  it('given a new proposed experiment and no viewer, then 10 for freshness + 1 for the status', () => expect(discoveryScore(experiment(), NO_VIEWER, now)).toBe(11));

  it('given an experiment 84 h old, then freshness 5; 168 h old or more, 0', () => {
    expect(discoveryScore(experiment({ created_at: hoursAgo(84) }), NO_VIEWER, now)).toBe(6);
    expect(discoveryScore(experiment({ created_at: hoursAgo(500) }), NO_VIEWER, now)).toBe(1);
  });

  it('given contributors, votes and funding, then 2·ln(1+c) + 1.5·ln(1+v) + 0.5·ln(1+f)', () =>
    expect(discoveryScore(experiment({ created_at: hoursAgo(500), contributor_count: 3, total_votes: 4, funding_total: 99 }), NO_VIEWER, now)).toBe(
      r4(2 * Math.log(4) + 1.5 * Math.log(5) + 0.5 * Math.log(100) + 1),
    ));

  it('given a viewer with 2 votes and posts in the category, then + 3·ln(3); in another category, nothing', () => {
    const viewer = { intents: { health: 2 }, bonded: new Set<string>() };
    expect(discoveryScore(experiment({ created_at: hoursAgo(500) }), viewer, now)).toBe(r4(3 * Math.log(3) + 1));
    expect(discoveryScore(experiment({ created_at: hoursAgo(500), intent_category: 'equity' }), viewer, now)).toBe(1);
  });

  it('given a viewer bonded at level 3 with the creator, then + 5', () =>
    expect(discoveryScore(experiment({ created_at: hoursAgo(500) }), { intents: {}, bonded: new Set(['ann']) }, now)).toBe(6));

  it.each(Object.entries(STATUS_WEIGHTS))('given status %s, then its weight %d', (status, weight) =>
    expect(discoveryScore(experiment({ created_at: hoursAgo(500), status: status as ScoredExperiment['status'] }), NO_VIEWER, now)).toBe(weight));

  it('the status weights of the contract', () => expect(STATUS_WEIGHTS).toMatchObject({ voting: 3, evaluating: 2.5, discussing: 2, proposed: 1, decided: 0.5 }));
});
