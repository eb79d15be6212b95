/**
 * The contest's scoring rules (SPEC §2.7), in one place: tracks, the weight of
 * each scoring event on each track, the attestation rule, the embodied success
 * threshold and the contest window. Pure: the saga, the info route and the
 * specs all read this table.
 */
export type Track = 'digital' | 'embodied' | 'human_wellness';
export const TRACKS: readonly Track[] = ['digital', 'embodied', 'human_wellness'];

export type ScoringEventType =
  | 'recipe_published'
  | 'agent_adopted'
  | 'benchmarks_proven'
  | 'robot_episode_success'
  | 'robot_skill_registered'
  | 'gpu_hour_served'
  | 'wellness_outcome_attested'
  | 'human_correction_accepted'
  | 'season_spark';

/** Points per track; a track without an entry scores nothing for that event. */
export const SCORE_WEIGHTS: Readonly<Record<ScoringEventType, Readonly<Partial<Record<Track, number>>>>> = {
  recipe_published: { digital: 100 },
  agent_adopted: { digital: 50 },
  benchmarks_proven: { digital: 25, human_wellness: 15 },
  robot_episode_success: { embodied: 75 },
  robot_skill_registered: { embodied: 40 },
  gpu_hour_served: { embodied: 5 },
  wellness_outcome_attested: { human_wellness: 120 },
  human_correction_accepted: { human_wellness: 30 },
  season_spark: { digital: 1, embodied: 1, human_wellness: 1 },
};
export const SCORING_EVENT_TYPES = Object.keys(SCORE_WEIGHTS) as ScoringEventType[];

/** Where each scoring event comes from (for the info route). */
export const SCORE_SOURCES: Readonly<Record<ScoringEventType, string>> = {
  recipe_published: 'app marketplace',
  agent_adopted: 'expert agents network',
  benchmarks_proven: 'benchmark prover',
  robot_episode_success: 'intelligence API',
  robot_skill_registered: 'intelligence API',
  gpu_hour_served: 'hosting reward service',
  wellness_outcome_attested: 'guardrail attestation',
  human_correction_accepted: 'action classifier preview flow',
  season_spark: 'spark award service',
};

/** An embodied episode counts when its success rate is at least this. */
export const EMBODIED_SUCCESS_THRESHOLD = 0.7;

/** The spark recorded once when a user joins the contest. */
/** The spark recorded once when a user joins the contest; its source is (`contest:joined`, user id). */
export const JOIN_AWARD = { amount: 1, reason: 'contest:joined', sourceType: 'contest:joined' } as const;

export interface ContestWindow {
  startsAt: Date;
  endsAt: Date;
}

/** Inside the window: from `startsAt` inclusive to `endsAt` exclusive. */
export function insideWindow(at: Date, window: ContestWindow): boolean {
  const t = at.getTime();
  return t >= window.startsAt.getTime() && t < window.endsAt.getTime();
}

export interface ScoringInput {
  eventType: ScoringEventType;
  /** the guardrail attested the submission against human wellness */
  attested: boolean;
  /** robot_episode_success only */
  successRate: number | null;
  occurredAt: Date;
}

export type TrackPoints = Partial<Record<Track, number>>;

/**
 * What an event scores: points per track and their sum, or null when it scores
 * nothing (unattested, outside the window, below the success threshold).
 */
export function scoreFor(input: ScoringInput, window: ContestWindow): { tracks: TrackPoints; amount: number } | null {
  if (!input.attested) return null;
  if (!insideWindow(input.occurredAt, window)) return null;
  if (input.eventType === 'robot_episode_success') {
    if (input.successRate === null || !(input.successRate >= EMBODIED_SUCCESS_THRESHOLD)) return null;
  }
  const weights = SCORE_WEIGHTS[input.eventType];
  if (!weights) return null;
  const tracks: TrackPoints = {};
  let amount = 0;
  for (const track of TRACKS) {
    const points = weights[track];
    if (points) {
      tracks[track] = points;
      amount += points;
    }
  }
  return amount > 0 ? { tracks, amount } : null;
}

export function isTrack(value: unknown): value is Track {
  return typeof value === 'string' && (TRACKS as readonly string[]).includes(value);
}

export function isScoringEventType(value: unknown): value is ScoringEventType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(SCORE_WEIGHTS, value);
}
