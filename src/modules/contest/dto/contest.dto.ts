/** Request bodies and queries of the hive contest routes. Unknown fields are dropped; wrong types are 400. */
import { IsBoolean, IsIn, IsISO8601, IsNumber, IsOptional, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { SCORING_EVENT_TYPES, type ScoringEventType, type Track, TRACKS } from '../../../aggregates/contest/scoring';

const ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;

export class JoinContestDto {
  @IsString({ message: `track must be one of ${TRACKS.join(', ')}` })
  @IsIn(TRACKS as Track[], { message: `track must be one of ${TRACKS.join(', ')}` })
  track!: Track;
}

export class ReportScoringEventDto {
  @IsString({ message: `event_type must be one of ${SCORING_EVENT_TYPES.join(', ')}` })
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
