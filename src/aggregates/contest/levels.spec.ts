import { LEVEL_TITLES, levelOf, titleOf, xpToPass } from './levels';

describe('levels', () => {
  it('given the formula, then passing level n takes floor(100 × 1.15^(n−1)) XP, in binary floating point as the original computes it (114 for level 2)', () => {
    expect([1, 2, 3, 10].map(xpToPass)).toEqual([100, 114, 132, 351]);
  });

  it('given no XP, then the level is 1, Newcomer, with the next level at 100 XP', () => {
    expect(levelOf(0)).toEqual({ level: 1, title: 'Newcomer', xp: 0, xp_next: 100, progress_pct: 0 });
  });

  it('given exactly the XP of a threshold, then the next level is reached', () => {
    expect(levelOf(99).level).toBe(1);
    expect(levelOf(100)).toMatchObject({ level: 2, xp_next: 214, progress_pct: 0 });
    expect(levelOf(214).level).toBe(3);
  });

  it('given XP inside a level, then progress is the share of that level done', () => {
    expect(levelOf(50).progress_pct).toBe(50);
  });

  it('given the title thresholds, then a title holds from its level until the next title begins', () => {
    expect(titleOf(2)).toBe('Newcomer');
    expect(titleOf(3)).toBe('Explorer');
    expect(titleOf(49)).toBe('Legend');
    expect(titleOf(50)).toBe('Founding Pillar');
    expect(LEVEL_TITLES.map((t) => t.level)).toEqual([1, 3, 5, 8, 10, 15, 20, 25, 30, 40, 50]);
  });

  it('given negative or non-finite XP, then it counts as none', () => {
    expect(levelOf(-5).level).toBe(1);
    expect(levelOf(Number.NaN).xp).toBe(0);
  });
});
