/**
 * Command handlers of the hive contest: each runs one decider on one stream
 * through the CommandExecutor and replies from the outcome.
 */
import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { contestEntryDecider, contestEntryStreamId } from '../../aggregates/contest/contest-entry';
import { scoringEventDecider, scoringEventStreamId } from '../../aggregates/contest/scoring-event';
import { joinAward, walletDecider, walletStreamId } from '../../aggregates/contest/wallet';
import { leftIn } from '../../aggregates/shared/decider';
import { DomainError } from '../../aggregates/shared/domain-error';
import { CONTEST_CONFIG, type ContestWindow } from '../../config/contest.config';
import { AccountsQueries } from '../accounts/accounts.queries';
import { CommandExecutor } from '../common/command-executor';
import { AwardSpark, JoinContest, type JoinReceipt, ReportScoringEvent, type ScoringReportReceipt } from './contest.commands';

@CommandHandler(AwardSpark)
export class AwardSparkHandler implements ICommandHandler<AwardSpark> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: AwardSpark): Promise<{ awarded: boolean }> {
    const { readYourWrites = false, ...award } = payload;
    const { events } = await this.executor.execute(
      walletDecider,
      walletStreamId(award.userId),
      { kind: 'award', ...award },
      context,
      // many sources may pay one wallet at once: conflicts are expected, retry more
      { maxRetries: 20, readYourWrites },
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
    @Inject(CONTEST_CONFIG) private readonly contest: ContestWindow,
  ) {}

  async execute({ payload, context }: JoinContest): Promise<JoinReceipt> {
    const { userId } = payload;
    const outcome = await this.executor.execute(
      contestEntryDecider,
      contestEntryStreamId(userId),
      { kind: 'join', ...payload, endsAt: this.contest.endsAt },
      context,
    );
    const entry = leftIn(outcome.state, 'joined');
    await this.commands.execute(
      new AwardSpark({ ...joinAward(userId, entry.track), readYourWrites: true }, { ...context, causationId: context.causationId ?? null }),
    );
    return { ok: true, already_registered: outcome.events.length === 0, track: entry.track, joined_at: entry.joinedAt };
  }
}

/** A report names an existing user (the accounts read model), then records the source once. */
@CommandHandler(ReportScoringEvent)
export class ReportScoringEventHandler implements ICommandHandler<ReportScoringEvent> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly accounts: AccountsQueries,
  ) {}

  async execute({ payload, context }: ReportScoringEvent): Promise<ScoringReportReceipt> {
    if (!(await this.accounts.userById(payload.userId))) throw new DomainError('not_found', 'user not found');
    const { events, state } = await this.executor.execute(
      scoringEventDecider,
      scoringEventStreamId(payload.eventType, payload.sourceId),
      { kind: 'report', ...payload, reportedBy: context.actor },
      context,
    );
    const { report: reported } = leftIn(state, 'reported');
    return {
      event_type: reported.event_type,
      source_id: reported.source_id,
      user_id: reported.user_id,
      recorded: events.length > 0,
      occurred_at: reported.occurred_at,
    };
  }
}

export const CONTEST_COMMAND_HANDLERS = [JoinContestHandler, ReportScoringEventHandler, AwardSparkHandler];
