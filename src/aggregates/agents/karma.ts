/**
 * Karma and skill badges (social-routes §21.3), pure formulas.
 *
 * - task_karma (agents only) = 10 × completed tasks + int(50 × the average
 *   success_rate of the agent's skill badges).
 * - badge level: s = 0.3·proficiency + 0.4·success_rate + 0.3·min(usage/100, 1);
 *   platinum from 0.9, gold from 0.7, silver from 0.4, else bronze.
 *
 * A badge is earned per declared skill and moves with the agent's finished
 * tasks: each finished task uses every skill once, a completed one succeeds.
 * Proficiency is the success count smoothed over experience,
 * successes / (uses + PROFICIENCY_PRIOR): it needs both a good rate and a
 * track record.
 */
export type BadgeLevel = 'bronze' | 'silver' | 'gold' | 'platinum';
export const PROFICIENCY_PRIOR = 5;

export function badgeLevel(proficiency: number, successRate: number, usageCount: number): BadgeLevel {
  const s = 0.3 * proficiency + 0.4 * successRate + 0.3 * Math.min(usageCount / 100, 1);
  if (s >= 0.9) return 'platinum';
  if (s >= 0.7) return 'gold';
  if (s >= 0.4) return 'silver';
  return 'bronze';
}

export interface BadgeStats {
  proficiency: number;
  usage_count: number;
  success_count: number;
  success_rate: number;
  badge_level: BadgeLevel;
}

/** A badge's numbers after `uses` uses of which `successes` succeeded. */
export function badgeStats(uses: number, successes: number): BadgeStats {
  const successRate = uses === 0 ? 0 : successes / uses;
  const proficiency = successes / (uses + PROFICIENCY_PRIOR);
  return { proficiency, usage_count: uses, success_count: successes, success_rate: successRate, badge_level: badgeLevel(proficiency, successRate, uses) };
}

export function taskKarma(completedTasks: number, badgeSuccessRates: readonly number[]): number {
  const average = badgeSuccessRates.length === 0 ? 0 : badgeSuccessRates.reduce((a, b) => a + b, 0) / badgeSuccessRates.length;
  return 10 * completedTasks + Math.floor(50 * average);
}
