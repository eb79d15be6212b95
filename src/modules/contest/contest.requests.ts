/**
 * Request bodies and query strings of the hive contest routes. Bodies are
 * class-validator DTOs (unknown fields dropped, wrong types 400); the
 * leaderboard's query string and the Host header have readers.
 */
import { IsBoolean, IsIn, IsISO8601, IsNumber, IsOptional, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { isTrack, SCORING_EVENT_TYPES, type ScoringEventType, type Track, TRACKS } from '../../aggregates/contest/scoring';
import { invalid } from '../common/body-fields';
import type { JsonSchema } from '../common/openapi';
import type { ReportScoringEvent } from './contest.commands';

const ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;

export class JoinContestDto {
  // IsIn alone: it refuses non-strings too, and a second rule with the same text was reported twice
  @IsIn(TRACKS as Track[], { message: `track must be one of ${TRACKS.join(', ')}` })
  track!: Track;
}

export class ReportScoringEventDto {
  @IsIn(SCORING_EVENT_TYPES, { message: `event_type must be one of ${SCORING_EVENT_TYPES.join(', ')}` })
  event_type!: ScoringEventType;

  @IsString({ message: 'source_id must be a string' })
  @Matches(ID_PATTERN, { message: 'source_id must be 1-128 characters of letters, digits, _ . : @ -' })
  source_id!: string;

  @IsString({ message: 'user_id must be a string' })
  @Matches(ID_PATTERN, { message: 'user_id must be 1-128 characters of letters, digits, _ . : @ -' })
  user_id!: string;

  @IsBoolean({ message: 'attested must be a boolean' })
  attested!: boolean;

  @ValidateIf((o: ReportScoringEventDto) => o.event_type === 'robot_episode_success' || o.success_rate !== undefined)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'success_rate must be a number from 0 to 1 (required for robot_episode_success)' })
  @Min(0, { message: 'success_rate must be a number from 0 to 1' })
  @Max(1, { message: 'success_rate must be a number from 0 to 1' })
  success_rate?: number;

  @IsOptional()
  @IsString({ message: 'occurred_at must be an ISO 8601 timestamp' })
  @IsISO8601({ strict: true }, { message: 'occurred_at must be an ISO 8601 timestamp' })
  occurred_at?: string;
}

/** The command payload of a scoring report: an absent success rate or time is null. */
export function scoringReport(body: ReportScoringEventDto): ReportScoringEvent['payload'] {
  return {
    eventType: body.event_type,
    sourceId: body.source_id,
    userId: body.user_id,
    attested: body.attested,
    successRate: body.success_rate ?? null,
    occurredAt: body.occurred_at ? new Date(body.occurred_at) : null,
  };
}

export const LEADERBOARD_DEFAULT_LIMIT = 50;
export const LEADERBOARD_MAX_LIMIT = 200;

export interface LeaderboardQuery {
  /** null: the overall board */
  track: Track | null;
  limit: number;
}

/** The query parameters `leaderboardQuery` reads, for the OpenAPI document. */
export const LEADERBOARD_QUERY_SCHEMAS: Record<'track' | 'limit', JsonSchema> = {
  track: { enum: [...TRACKS, 'overall', ''], description: 'a track; overall or empty (the default): the overall board' },
  limit: { type: 'integer', minimum: 1, maximum: LEADERBOARD_MAX_LIMIT, default: LEADERBOARD_DEFAULT_LIMIT },
};

/** `?track=` (a track, `overall` or empty) and `?limit=` (1..200, default 50), checked in that order. */
export function leaderboardQuery(query: { track?: unknown; limit?: unknown }): LeaderboardQuery {
  const { track, limit } = query;
  let board: Track | null = null;
  if (track !== undefined && track !== '' && track !== 'overall') {
    if (!isTrack(track)) throw invalid('track must be one of digital, embodied, human_wellness');
    board = track;
  }
  let n = LEADERBOARD_DEFAULT_LIMIT;
  if (limit !== undefined) {
    if (typeof limit !== 'string' || !/^\d{1,4}$/.test(limit) || +limit < 1 || +limit > LEADERBOARD_MAX_LIMIT) {
      throw invalid(`limit must be an integer from 1 to ${LEADERBOARD_MAX_LIMIT}`);
    }
    n = Number(limit);
  }
  return { track: board, limit: n };
}

