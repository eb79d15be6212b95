/**
 * The experiment discovery score (social-routes §21.1), a pure function of
 * what the discovery query reads:
 *
 *   3·ln(1 + the viewer's votes and posts in the experiment's intent category)
 * + max(0, 10 − age_hours / 16.8)
 * + 2·ln(1 + contributors) + 1.5·ln(1 + total_votes) + 0.5·ln(1 + funding_total)
 * + 5 when the creator has a bond of level 3 or more with the viewer
 * + the status weight (voting 3, evaluating 2.5, discussing 2, proposed 1, decided 0.5).
 */
import type { ExperimentStatus } from '../../aggregates/experiments/experiment';

export const STATUS_WEIGHTS: Readonly<Record<ExperimentStatus, number>> = { voting: 3, evaluating: 2.5, discussing: 2, proposed: 1, decided: 0.5, archived: 0 };
/** how many of the newest non-archived experiments are scored */
export const DISCOVERY_POOL = 200;
export const BOND_BONUS_LEVEL = 3;

export interface ScoredExperiment {
  status: ExperimentStatus;
  intent_category: string;
  created_at: string;
  contributor_count: number;
  total_votes: number;
  funding_total: number;
  creator_id: string;
}

export interface Viewer {
  /** the viewer's votes and posts per intent category */
  intents: Readonly<Record<string, number>>;
  /** the users the viewer has a bond of level ≥ 3 with */
  bonded: ReadonlySet<string>;
}

export const NO_VIEWER: Viewer = { intents: {}, bonded: new Set() };

export function discoveryScore(experiment: ScoredExperiment, viewer: Viewer, now: Date): number {
  const ageHours = Math.max(0, (now.getTime() - Date.parse(experiment.created_at)) / 3600_000);
  const score =
    3 * Math.log1p(viewer.intents[experiment.intent_category] ?? 0) +
    Math.max(0, 10 - ageHours / 16.8) +
    2 * Math.log1p(experiment.contributor_count) +
    1.5 * Math.log1p(experiment.total_votes) +
    0.5 * Math.log1p(Math.max(0, experiment.funding_total)) +
    (viewer.bonded.has(experiment.creator_id) ? 5 : 0) +
    STATUS_WEIGHTS[experiment.status];
  return Math.round(score * 10_000) / 10_000;
}
