import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { contestEntryDecider, contestEntryStreamId } from '../../../aggregates/contest/contest-entry';
import { JOIN_AWARD } from '../../../aggregates/contest/scoring';
import { scoringEventDecider, scoringEventStreamId } from '../../../aggregates/contest/scoring-event';
import { walletDecider, walletStreamId } from '../../../aggregates/contest/wallet';
import { CONTEST_CONFIG, type ContestConfig } from '../../../config/contest.config';
import { CommandExecutor } from '../../common/command-executor';
import { AwardSpark, JoinContest, type JoinReceipt, ReportScoringEvent, type ScoringReportReceipt } from './commands';


@CommandHandler(AwardSpark)
export class AwardSparkHandler implements ICommandHandler<AwardSpark> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute(c: AwardSpark): Promise<{ awarded: boolean }> {
    const { events } = await this.executor.execute(
      walletDecider,
      walletStreamId(c.userId),
      { kind: 'award', userId: c.userId, tracks: c.tracks, sourceType: c.sourceType, sourceId: c.sourceId, reason: c.reason },
      c.context,
      // many sources may pay one wallet at once: conflicts are expected, retry more
      { maxRetries: 20, readYourWrites: c.readYourWrites },
    );
    return { awarded: events.length > 0 };
  }
}

/**
 * Joins on the entry stream of the user (deterministic id: concurrent joins
 * conflict on its revision and the loser returns the winner's receipt), then
 * records the 1-spark join award right away so the caller sees it. The saga
 * reacts to ContestJoined too and pays the same source, which the wallet
 * ignores: the award is recorded even if this process stops in between.
 */
@CommandHandler(JoinContest)
export class JoinContestHandler implements ICommandHandler<JoinContest> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly commands: CommandBus,
    @Inject(CONTEST_CONFIG) private readonly contest: ContestConfig,
  ) {}

  async execute({ userId, track, context }: JoinContest): Promise<JoinReceipt> {
    const outcome = await this.executor.execute(
      contestEntryDecider,
      contestEntryStreamId(userId),
      { kind: 'join', userId, track, endsAt: this.contest.endsAt },
      context,
    );
    const entry = outcome.state;
    await this.commands.execute(
      new AwardSpark(
        userId,
        { [entry.track!]: JOIN_AWARD.amount },
        JOIN_AWARD.sourceType,
        userId,
        JOIN_AWARD.reason,
        { ...context, causationId: context.causationId ?? null },
        true,
      ),
    );
    return { ok: true, already_registered: outcome.events.length === 0, track: entry.track!, joined_at: entry.joinedAt! };
  }
}

@CommandHandler(ReportScoringEvent)
export class ReportScoringEventHandler implements ICommandHandler<ReportScoringEvent> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ input, context }: ReportScoringEvent): Promise<ScoringReportReceipt> {
    const { events, state } = await this.executor.execute(
      scoringEventDecider,
      scoringEventStreamId(input.eventType, input.sourceId),
      { kind: 'report', ...input, reportedBy: context.actor },
      context,
    );
    const reported = state.reported!;
    return {
      event_type: reported.event_type,
      source_id: reported.source_id,
      user_id: reported.user_id,
      recorded: events.length > 0,
      occurred_at: reported.occurred_at,
    };
  }
}
