/** Commands of the hive contest context, dispatched on the @nestjs/cqrs CommandBus. */
import type { ContestEntryCommand } from '../../aggregates/contest/contest-entry';
import type { ScoringEventType, Track } from '../../aggregates/contest/scoring';
import type { ScoringEventCommand } from '../../aggregates/contest/scoring-event';
import type { WalletCommand } from '../../aggregates/contest/wallet';
import type { CommandInput } from '../../aggregates/shared/decider';
import { DomainCommand } from '../common/domain-command';

export interface JoinReceipt {
  ok: true;
  already_registered: boolean;
  track: Track;
  joined_at: string;
}

/** The contest's end comes from the configuration, not from the caller. */
export class JoinContest extends DomainCommand<Omit<CommandInput<ContestEntryCommand, 'join'>, 'endsAt'>, JoinReceipt> {}

export interface ScoringReportReceipt {
  event_type: ScoringEventType;
  source_id: string;
  user_id: string;
  /** false: this source had already been reported (nothing new recorded) */
  recorded: boolean;
  occurred_at: string;
}

/** The reporter is the command's actor. */
export class ReportScoringEvent extends DomainCommand<Omit<CommandInput<ScoringEventCommand, 'report'>, 'reportedBy'>, ScoringReportReceipt> {}

export type AwardSparkPayload = CommandInput<WalletCommand, 'award'> & {
  /** wait for the leaderboard projection before returning (HTTP paths); default false */
  readYourWrites?: boolean;
};

/** Issued by the scoring saga (and the join handler): idempotent on its source. */
export class AwardSpark extends DomainCommand<AwardSparkPayload, { awarded: boolean }> {}
