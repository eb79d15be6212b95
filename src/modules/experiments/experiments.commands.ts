/**
 * The commands of the thought-experiment context (social-routes §17). The
 * acting user is resolved before a command is built (a token's user, or a
 * body id on a flat node: experiments.requests.ts `actingUserId`).
 */
import type { ExperimentType } from '../../aggregates/experiments/experiment';
import type { DecisionContext, VoterType } from '../../aggregates/experiments/voting-rules';
import { DomainCommand } from '../common/domain-command';
import type { ExperimentView, VoteView } from './experiments.queries';

export interface ProposeExperimentPayload {
  creatorId: string;
  title: string;
  hypothesis: string;
  expectedOutcome: string;
  intentCategory: string;
  decisionType: string;
  experimentType: ExperimentType;
  /** null: from keywords in title and hypothesis */
  decisionContext: DecisionContext | null;
  isCoreIp: boolean;
  parentExperimentId: string | null;
}

/** Records ExperimentProposed; the linked post and the reward follow from it (ExperimentPublicationSaga). */
export class ProposeExperiment extends DomainCommand<ProposeExperimentPayload, ExperimentView> {}

export class AdvanceExperiment extends DomainCommand<{ experimentId: string; target: string | null }, ExperimentView> {}

export class ContributeToExperiment extends DomainCommand<{ experimentId: string; userId: string; sparkAmount: number }, ExperimentView> {}

export class CastExperimentVote extends DomainCommand<
  {
    experimentId: string;
    voterId: string;
    voterType: VoterType;
    value: number;
    confidence: number;
    reasoning: string;
    suggestion: string;
    /** the caller is an admin (counts as the steward) */
    byAdmin: boolean;
  },
  VoteView
> {}

export type EvaluationOutcome = { success: true; goal_id: string; experiment_type: ExperimentType; iteration_strategy: string } | Refused;

/** `{success: false, reason}` as the original answers, with `error` (the same text) for clients of the error envelope. */
export interface Refused {
  success: false;
  reason: string;
  error: string;
}

export const refused = (reason: string): Refused => ({ success: false, reason, error: reason });

/** Creates the evaluation goal (AcceptGoal, owned by `goalOwnerId`) and moves the experiment to evaluating. */
export class EvaluateExperiment extends DomainCommand<{ experimentId: string; goalOwnerId: string | null }, EvaluationOutcome> {}

export class DecideExperiment extends DomainCommand<{ experimentId: string; decision: string }, ExperimentView> {}

export class SetExperimentEvolutionPaused extends DomainCommand<{ experimentId: string; userId: string; isAdmin: boolean; paused: boolean }, ExperimentView> {}
