/**
 * The trust formula (social-routes §15): each dimension of a user's ratings is
 * a weighted mean of its scores, the weight of a score being
 * clamp(rater signal ÷ 10, 0.5, 3); the composite is
 * 0.25·skill + 0.30·usefulness + 0.30·reliability + 0.15·creativity.
 *
 * The weight is taken when the rating is given (or revised) and recorded in
 * the event (`weight`, with the `rater_signal` it came from): a rebuild of the
 * read models gives the same trust, and a rater's later signal does not move
 * ratings already given (docs/architecture.md, "Trust weights").
 */
export const DIMENSIONS = ['skill', 'usefulness', 'reliability', 'creativity'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const COMPOSITE_WEIGHTS: Readonly<Record<Dimension, number>> = { skill: 0.25, usefulness: 0.3, reliability: 0.3, creativity: 0.15 };

export const MIN_WEIGHT = 0.5;
export const MAX_WEIGHT = 3;

/** The weight of a rater's scores: their wallet's signal ÷ 10, within [0.5, 3]; no wallet (signal 0) weighs 0.5. */
export function raterWeight(signal: number): number {
  const raw = Number.isFinite(signal) ? signal / 10 : 0;
  return Math.min(MAX_WEIGHT, Math.max(MIN_WEIGHT, raw));
}

/** Σ weight·score and Σ weight of one dimension's scores. */
export interface WeightedSum {
  weighted: number;
  weight: number;
}

/** The weighted mean, 0 for no scores; rounded to 2 decimals as the replies show it. */
export function weightedMean(sum: WeightedSum | undefined): number {
  if (!sum || sum.weight <= 0) return 0;
  return round2(sum.weighted / sum.weight);
}

export function compositeTrust(means: Readonly<Record<Dimension, number>>): number {
  return round2(DIMENSIONS.reduce((total, dimension) => total + COMPOSITE_WEIGHTS[dimension] * means[dimension], 0));
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
