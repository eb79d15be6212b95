/**
 * `seasonStandings`: per season and user, the pulse and spark the user's
 * wallet earned within the season's window (social-routes §15, the season
 * leaderboard), `_id` `<seasonId>:<userId>`. Earned means credited: the
 * action table's rewards (RewardGranted), the contest's spark (SparkAwarded),
 * the check-in bonus (DailyCheckedIn); spending (a boost) takes nothing off.
 * The season is the one the credit's own time falls in, so a rebuild from the
 * log puts every credit in the same season.
 */
import { seasonOf } from '../../aggregates/gamification/seasons';
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type RecordedOf } from '../support/define-projection';

export const SEASON_STANDINGS = 'season_standings';

export interface SeasonStandingDoc extends Doc {
  season_id: string;
  user_id: string;
  season_pulse: number;
  season_spark: number;
  /** season_pulse + season_spark: what the leaderboard ranks by */
  season_total: number;
}

type Credit = RecordedOf<'RewardGranted' | 'SparkAwarded' | 'DailyCheckedIn'>;

function earned(event: Credit): { at: string; pulse: number; spark: number } {
  switch (event.type) {
    case 'RewardGranted':
      return { at: event.data.granted_at, pulse: event.data.pulse, spark: event.data.spark };
    case 'SparkAwarded':
      return { at: event.data.awarded_at, pulse: 0, spark: event.data.amount };
    case 'DailyCheckedIn':
      return { at: event.data.checked_in_at, pulse: 0, spark: event.data.spark_bonus };
  }
}

function credit(event: Credit, writer: ProjectionWriter): void {
  const { at, pulse, spark } = earned(event);
  const time = new Date(at);
  if ((pulse <= 0 && spark <= 0) || !Number.isFinite(time.getTime())) return;
  const season = seasonOf(time).id;
  const userId = event.data.user_id;
  applyOnce(writer, SEASON_STANDINGS, `${season}:${userId}`, event, {
    $set: { season_id: season, user_id: userId },
    $inc: { season_pulse: Math.max(pulse, 0), season_spark: Math.max(spark, 0), season_total: Math.max(pulse, 0) + Math.max(spark, 0) },
  });
}

export const seasonStandingsProjection = defineProjection({
  name: 'seasonStandings',
  version: 1,
  collections: [SEASON_STANDINGS],
  indexes: [{ collection: SEASON_STANDINGS, spec: { keys: { season_id: 1, season_total: -1, user_id: 1 } } }],
  on: { RewardGranted: credit, SparkAwarded: credit, DailyCheckedIn: credit },
});
