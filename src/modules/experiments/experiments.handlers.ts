/**
 * Command handlers of the thought-experiment context: each runs the
 * experiment's decider on `experiment-<id>` through the CommandExecutor and
 * replies from the outcome. Votes are decided on the experiment's stream, so
 * one vote per (experiment, voter) holds under concurrency.
 */
import { createHash, randomUUID } from 'node:crypto';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { experimentDecider, type ExperimentState, experimentStreamId } from '../../aggregates/experiments/experiment';
import { classifyDecisionContext } from '../../aggregates/experiments/voting-rules';
import { DomainError } from '../../aggregates/shared/domain-error';
import { checkGuardrail } from '../chat/gate/guardrail';
import { CommandExecutor } from '../common/command-executor';
import { AcceptGoal } from '../goals/goals.commands';
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT_SEC } from '../goals/goals.requests';
import {
  AdvanceExperiment,
  CastExperimentVote,
  ContributeToExperiment,
  DecideExperiment,
  EvaluateExperiment,
  type EvaluationOutcome,
  ProposeExperiment,
  refused,
  SetExperimentEvolutionPaused,
} from './experiments.commands';
import { type ExperimentView, experimentView, sourceOf, type VoteView, voteView } from './experiments.queries';
import { iterationRecipe } from './iteration-recipe';

/** The linked post's id: derived from the experiment's, so a redelivered ExperimentProposed publishes it once (20 hex, like other post ids). */
export const experimentPostId = (experimentId: string): string => createHash('sha256').update(`experiment-post:${experimentId}`).digest('hex').slice(0, 20);

const viewOf = (state: ExperimentState): ExperimentView => {
  if (state.status === 'none') throw new DomainError('not_found', 'not_found');
  return experimentView(sourceOf(state));
};

@CommandHandler(ProposeExperiment)
export class ProposeExperimentHandler implements ICommandHandler<ProposeExperiment> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: p, context }: ProposeExperiment): Promise<ExperimentView> {
    // the content filter of the chat gate over "title: hypothesis" (§17: 403 when it blocks)
    const check = checkGuardrail(`${p.title}: ${p.hypothesis}`);
    if (!check.allowed) throw new DomainError('forbidden', check.reason, { details: { category: check.category } });
    const experimentId = randomUUID();
    const record = {
      experiment_id: experimentId,
      post_id: experimentPostId(experimentId),
      creator_id: p.creatorId,
      title: p.title,
      hypothesis: p.hypothesis,
      expected_outcome: p.expectedOutcome,
      intent_category: p.intentCategory,
      decision_type: p.decisionType,
      decision_context: p.decisionContext ?? classifyDecisionContext(p.title, p.hypothesis),
      experiment_type: p.experimentType,
      is_core_ip: p.isCoreIp,
      parent_experiment_id: p.parentExperimentId,
    };
    const { state } = await this.executor.execute(experimentDecider, experimentStreamId(experimentId), { kind: 'propose', record }, context, { newStream: true });
    return viewOf(state);
  }
}

@CommandHandler(AdvanceExperiment)
export class AdvanceExperimentHandler implements ICommandHandler<AdvanceExperiment> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: AdvanceExperiment): Promise<ExperimentView> {
    const { state } = await this.executor.execute(experimentDecider, experimentStreamId(payload.experimentId), { kind: 'advance', target: payload.target }, context);
    return viewOf(state);
  }
}

@CommandHandler(ContributeToExperiment)
export class ContributeToExperimentHandler implements ICommandHandler<ContributeToExperiment> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ContributeToExperiment): Promise<ExperimentView> {
    const command = { kind: 'contribute' as const, userId: payload.userId, sparkAmount: payload.sparkAmount };
    const { state } = await this.executor.execute(experimentDecider, experimentStreamId(payload.experimentId), command, context, { maxRetries: 20 });
    return viewOf(state);
  }
}

@CommandHandler(CastExperimentVote)
export class CastExperimentVoteHandler implements ICommandHandler<CastExperimentVote> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: p, context }: CastExperimentVote): Promise<VoteView> {
    const command = {
      kind: 'vote' as const,
      voteId: randomUUID(),
      voterId: p.voterId,
      voterType: p.voterType,
      value: p.value,
      confidence: p.confidence,
      reasoning: p.reasoning,
      suggestion: p.suggestion,
      constitutionalCheck: p.reasoning === '' || checkGuardrail(p.reasoning).allowed,
      byAdmin: p.byAdmin,
    };
    const { state } = await this.executor.execute(experimentDecider, experimentStreamId(p.experimentId), command, context, { maxRetries: 20 });
    if (state.status === 'none') throw new DomainError('not_found', 'not_found');
    return voteView(state.votes.find((vote) => vote.voter_id === p.voterId)!);
  }
}

/**
 * Checks that the experiment can be evaluated, creates the evaluation goal
 * through the goals pipeline (AcceptGoal with the recipe's steps as its
 * sub-tasks, which the hive then runs), and records the experiment as
 * evaluating with the goal's id. A refusal is `{success: false, reason}`.
 */
@CommandHandler(EvaluateExperiment)
export class EvaluateExperimentHandler implements ICommandHandler<EvaluateExperiment> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly commands: CommandBus,
  ) {}

  async execute({ payload, context }: EvaluateExperiment): Promise<EvaluationOutcome> {
    const streamId = experimentStreamId(payload.experimentId);
    const { state } = await this.executor.load(experimentDecider, streamId);
    if (state.status === 'none') return refused('not_found');
    if (state.status === 'decided' || state.status === 'archived') return refused('cannot_evaluate');
    const recipe = iterationRecipe(state.record);
    const goal = await this.commands.execute(
      new AcceptGoal(
        { userId: payload.goalOwnerId ?? state.record.creator_id, goal: recipe.goal, subtasks: recipe.steps, timeoutSec: DEFAULT_TIMEOUT_SEC, maxAttempts: DEFAULT_MAX_ATTEMPTS },
        context,
      ),
    );
    try {
      await this.executor.execute(experimentDecider, streamId, { kind: 'startEvaluation', goalId: goal.goal_id, iterationStrategy: recipe.strategy }, context);
    } catch (error) {
      if (error instanceof DomainError) return refused(error.message);
      throw error;
    }
    return { success: true, goal_id: goal.goal_id, experiment_type: state.record.experiment_type, iteration_strategy: recipe.strategy };
  }
}

@CommandHandler(DecideExperiment)
export class DecideExperimentHandler implements ICommandHandler<DecideExperiment> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: DecideExperiment): Promise<ExperimentView> {
    const { state } = await this.executor.execute(experimentDecider, experimentStreamId(payload.experimentId), { kind: 'decide', decision: payload.decision }, context);
    return viewOf(state);
  }
}

@CommandHandler(SetExperimentEvolutionPaused)
export class SetExperimentEvolutionPausedHandler implements ICommandHandler<SetExperimentEvolutionPaused> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: SetExperimentEvolutionPaused): Promise<ExperimentView> {
    const command = { kind: 'setEvolutionPaused' as const, userId: payload.userId, isAdmin: payload.isAdmin, paused: payload.paused };
    const { state } = await this.executor.execute(experimentDecider, experimentStreamId(payload.experimentId), command, context);
    return viewOf(state);
  }
}
