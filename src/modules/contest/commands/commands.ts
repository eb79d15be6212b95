/** Commands of the hive contest context, dispatched on the @nestjs/cqrs CommandBus. */
import { Command } from '@nestjs/cqrs';
import type { ScoringEventType, Track, TrackPoints } from '../../../aggregates/contest/scoring';
import type { CommandContext } from '../../common/command-executor';

export interface JoinReceipt {
  ok: true;
  already_registered: boolean;
  track: Track;
  joined_at: string;
}

export class JoinContest extends Command<JoinReceipt> {
  constructor(
    readonly userId: string,
    readonly track: Track,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export interface ScoringReportReceipt {
  event_type: ScoringEventType;
  source_id: string;
  user_id: string;
  /** false: this source had already been reported (nothing new recorded) */
  recorded: boolean;
  occurred_at: string;
}

export class ReportScoringEvent extends Command<ScoringReportReceipt> {
  constructor(
    readonly input: {
      eventType: ScoringEventType;
      sourceId: string;
      userId: string;
      attested: boolean;
      successRate: number | null;
      occurredAt: Date | null;
    },
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** Issued by the scoring saga (and the join handler): idempotent on its source. */
export class AwardSpark extends Command<{ awarded: boolean }> {
  constructor(
    readonly userId: string,
    readonly tracks: TrackPoints,
    readonly sourceType: string,
    readonly sourceId: string,
    readonly reason: string,
    readonly context: CommandContext,
    /** wait for the leaderboard projection before returning (HTTP paths) */
    readonly readYourWrites = false,
  ) {
    super();
  }
}
