/**
 * Handlers of the integrity context: challenges this node issues, sends and
 * evaluates (challenge-rounds.ts, aggregates/integrity/integrity-challenge.ts),
 * and node bans (aggregates/integrity/node-standing.ts).
 */
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { nodeStandingDecider, nodeStandingStreamId } from '../../aggregates/integrity/node-standing';
import { CommandExecutor } from '../common/command-executor';
import { ChallengeRounds } from './challenge-rounds';
import { type ChallengeDelivery, type ChallengeRecord, ChangeNodeStanding, EvaluateChallengeResponse, IssueIntegrityChallenge } from './integrity.commands';

@CommandHandler(IssueIntegrityChallenge)
export class IssueIntegrityChallengeHandler implements ICommandHandler<IssueIntegrityChallenge> {
  constructor(private readonly rounds: ChallengeRounds) {}

  async execute({ payload, context }: IssueIntegrityChallenge): Promise<ChallengeRecord & { delivery: ChallengeDelivery }> {
    const { record, delivery } = await this.rounds.challenge(payload, context);
    return { ...record, delivery };
  }
}

@CommandHandler(EvaluateChallengeResponse)
export class EvaluateChallengeResponseHandler implements ICommandHandler<EvaluateChallengeResponse> {
  constructor(private readonly rounds: ChallengeRounds) {}

  async execute({ payload, context }: EvaluateChallengeResponse): Promise<{ passed: boolean; details: string }> {
    const { passed, details } = await this.rounds.evaluate(payload, context);
    return { passed, details };
  }
}

@CommandHandler(ChangeNodeStanding)
export class ChangeNodeStandingHandler implements ICommandHandler<ChangeNodeStanding> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ChangeNodeStanding): Promise<{ banned: boolean }> {
    const { action, ...command } = payload;
    const { state } = await this.executor.execute(nodeStandingDecider, nodeStandingStreamId(payload.nodeId), { kind: action, ...command }, context);
    return { banned: state.banned };
  }
}
