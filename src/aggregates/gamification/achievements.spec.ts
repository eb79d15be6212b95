import { achievementById, catalogue, CATEGORIES, METRICS, PERMANENT_ACHIEVEMENTS, REWARDS_BY_RARITY, seasonalAchievements } from './achievements';
import { seasonById, seasonOf } from './seasons';

const q4 = seasonById('2026-q4')!;

describe('the achievements catalogue', () => {
  it('given a season, then it lists 48 achievements with unique ids derived from their slugs', () => {
    const all = catalogue(q4);
    expect(all).toHaveLength(48);
    expect(new Set(all.map((a) => a.id)).size).toBe(48);
    for (const a of all) expect(a.id).toBe(a.is_seasonal ? `ach_${a.slug}_2026-q4` : `ach_${a.slug}`);
  });

  it('then 44 are permanent and 4 seasonal, of that season', () => {
    expect(PERMANENT_ACHIEVEMENTS).toHaveLength(44);
    expect(seasonalAchievements(q4).map((a) => [a.category, a.season_id, a.is_seasonal])).toEqual(Array(4).fill(['seasonal', '2026-q4', true]));
  });

  it('then every category has achievements and every counter names a metric the saga counts', () => {
    const all = catalogue(q4);
    for (const category of CATEGORIES) expect(all.some((a) => a.category === category)).toBe(true);
    for (const a of all) if ('event' in a.criteria) expect(METRICS).toContain(a.criteria.event);
  });

  it('then the rewards follow the rarity', () => {
    for (const a of catalogue(q4)) {
      const r = REWARDS_BY_RARITY[a.rarity];
      expect([a.reward_pulse, a.reward_spark, a.reward_signal, a.reward_xp]).toEqual([r.pulse, r.spark, r.signal, r.xp]);
    }
  });

  it('given an id, then achievementById finds the permanent one and the seasonal one of any season; nothing else', () => {
    expect(achievementById('ach_first_post')).toMatchObject({ slug: 'first_post', criteria: { event: 'post_published', count: 1 } });
    expect(achievementById('ach_season_author_2020-q1')).toMatchObject({ slug: 'season_author', season_id: '2020-q1', is_seasonal: true });
    for (const id of ['ach_nope', 'ach_season_author_2020-q5', 'ach_first_post_2026-q4', 'first_post']) expect(achievementById(id)).toBeUndefined();
  });

  it('given the same season twice, then the catalogue is identical (stable)', () => {
    expect(catalogue(seasonOf(new Date('2026-11-01T00:00:00Z')))).toEqual(catalogue(q4));
  });
});
