/**
 * Levels and titles from XP (social-routes §15): the XP needed to go from
 * level n to level n + 1 is floor(100 × 1.15^(n−1)), so level 1 needs 100 XP
 * to pass, level 2 a further 115, and so on. Titles begin at levels 1, 3, 5,
 * 8, 10, 15, 20, 25, 30, 40 and 50. The original names the first and the last
 * (Newcomer, Founding Pillar); the names between are ours.
 */

/** The highest level reached; XP beyond it accumulates without a new level. */
export const MAX_LEVEL = 100;

export const LEVEL_TITLES: ReadonlyArray<{ level: number; title: string }> = [
  { level: 1, title: 'Newcomer' },
  { level: 3, title: 'Explorer' },
  { level: 5, title: 'Contributor' },
  { level: 8, title: 'Regular' },
  { level: 10, title: 'Established' },
  { level: 15, title: 'Resonant' },
  { level: 20, title: 'Luminary' },
  { level: 25, title: 'Trailblazer' },
  { level: 30, title: 'Sage' },
  { level: 40, title: 'Legend' },
  { level: 50, title: 'Founding Pillar' },
];

/** XP needed to pass level `level` (to reach level + 1). */
export function xpToPass(level: number): number {
  return Math.floor(100 * Math.pow(1.15, level - 1));
}

export function titleOf(level: number): string {
  let title = LEVEL_TITLES[0].title;
  for (const t of LEVEL_TITLES) if (level >= t.level) title = t.title;
  return title;
}

export interface LevelInfo {
  level: number;
  title: string;
  /** total XP earned */
  xp: number;
  /** total XP at which the next level is reached (equal to xp at MAX_LEVEL) */
  xp_next: number;
  /** progress through the current level, 0–100, one decimal */
  progress_pct: number;
}

/** The level, title and progress of a total of XP (negative or non-finite counts as 0). */
export function levelOf(totalXp: number): LevelInfo {
  const xp = Number.isFinite(totalXp) && totalXp > 0 ? totalXp : 0;
  let level = 1;
  let floor = 0;
  while (level < MAX_LEVEL && xp >= floor + xpToPass(level)) {
    floor += xpToPass(level);
    level += 1;
  }
  if (level === MAX_LEVEL) return { level, title: titleOf(level), xp, xp_next: xp, progress_pct: 100 };
  const span = xpToPass(level);
  return { level, title: titleOf(level), xp, xp_next: floor + span, progress_pct: Math.round(((xp - floor) / span) * 1000) / 10 };
}
