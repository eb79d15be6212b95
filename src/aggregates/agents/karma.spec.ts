import { badgeLevel, badgeStats, taskKarma } from './karma';

describe('karma and badges (§21.3)', () => {
  it.each([
    [1, 1, 100, 'platinum'],
    [0.5, 1, 100, 'gold'],
    [0, 1, 0, 'silver'],
    [0, 0.9, 0, 'bronze'],
  ])('given proficiency %p, success rate %p and %p uses, then the badge is %p', (p, s, u, level) => {
    expect(badgeLevel(p, s, u)).toBe(level);
  });

  it('given uses and successes, then the rate is their ratio and the proficiency is smoothed by experience', () => {
    expect(badgeStats(0, 0)).toEqual({ proficiency: 0, usage_count: 0, success_count: 0, success_rate: 0, badge_level: 'bronze' });
    const stats = badgeStats(5, 5);
    expect(stats.success_rate).toBe(1);
    expect(stats.proficiency).toBe(0.5);
    expect(stats.badge_level).toBe('silver');
  });

  it('given completed tasks and badge rates, then task_karma is 10 × completed + int(50 × average rate)', () => {
    expect(taskKarma(3, [1, 0.5])).toBe(30 + 37);
    expect(taskKarma(2, [])).toBe(20);
  });
});
