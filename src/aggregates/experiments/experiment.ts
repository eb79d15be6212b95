/**
 * A thought experiment (social-routes §17), stream `experiment-<id>`: its
 * lifecycle proposed → discussing → voting → evaluating → decided → archived,
 * its contributions, and its votes. The votes live in the experiment's own
 * stream, so one vote per (experiment, voter) is decided here: concurrent
 * votes of one voter serialize on the stream's revision, the first is cast
 * (total_votes + 1) and the others revise it.
 *
 * Nothing moves a status by the clock: the timestamps set at creation
 * (voting opens 48 h after, closes 72 h later, evaluation is due 24 h after
 * that) are information; `advance`, `evaluate` and `decide` move it.
 */
import type { Decider } from '../shared/decider';
import { assertNever, DomainError } from '../shared/domain-error';
import { type DecisionContext, type TalliedVote, type Tally, tallyVotes, VOTER_RULES, type VoterType } from './voting-rules';

export const EXPERIMENT_STATUSES = ['proposed', 'discussing', 'voting', 'evaluating', 'decided', 'archived'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];
export const INTENT_CATEGORIES = ['community', 'environment', 'education', 'health', 'equity', 'technology'] as const;
export const DECISION_TYPES = ['majority', 'weighted', 'consensus', 'expert_panel'] as const;
export const EXPERIMENT_TYPES = ['traditional', 'software', 'physical_ai', 'research', 'code_evolution'] as const;
export type ExperimentType = (typeof EXPERIMENT_TYPES)[number];

export const DISCUSS_HOURS = 48;
export const VOTING_HOURS = 72;
export const EVALUATION_HOURS = 24;
export const VOTE_MIN = -2;
export const VOTE_MAX = 2;
/** the voter id whose vote satisfies a steward-required context (the original's), besides an admin's vote */
export const STEWARD_VOTER_ID = 'steward';

export const NOT_FOUND = 'not_found';
export const CANNOT_ADVANCE = 'cannot_advance';
export const NOT_IN_VOTING_PHASE = 'experiment_not_in_voting_phase';
export const VOTER_NOT_ELIGIBLE = 'voter_not_eligible';
export const STEWARD_VOTE_REQUIRED = 'steward_vote_required';
export const CANNOT_EVALUATE = 'cannot_evaluate';
export const NOT_THE_OWNER = 'Only the experiment owner can pause or resume its evolution';

/** An experiment as proposed. */
export interface ExperimentRecord {
  experiment_id: string;
  /** the linked post (content_type thought_experiment), published by the ExperimentPublicationSaga under this id */
  post_id: string;
  creator_id: string;
  title: string;
  hypothesis: string;
  expected_outcome: string;
  intent_category: string;
  decision_type: string;
  decision_context: DecisionContext;
  experiment_type: ExperimentType;
  is_core_ip: boolean;
  parent_experiment_id: string | null;
  created_at: string;
  voting_opens_at: string;
  voting_closes_at: string;
  evaluation_deadline: string;
}

export interface VoteRecord extends TalliedVote {
  vote_id: string;
  experiment_id: string;
  reasoning: string;
  /** the reasoning passed the content filter */
  constitutional_check: boolean;
  /** cast by the steward (voter id `steward`) or by an admin */
  is_steward: boolean;
  created_at: string;
  updated_at: string;
}

export interface DecisionRationale {
  tally: Tally;
  /** agents' evaluations recorded for the experiment: none are recorded by this node yet */
  agent_evaluations: unknown[];
  decided_at: string;
}

/** The counters every change carries, so the read model sets them as they are. */
interface Counters {
  status: ExperimentStatus;
  total_votes: number;
  contributor_count: number;
  funding_total: number;
}

export type ExperimentEvent =
  | { type: 'ExperimentProposed'; data: ExperimentRecord }
  | { type: 'ExperimentAdvanced'; data: { experiment_id: string; from: ExperimentStatus; status: ExperimentStatus; at: string } }
  | { type: 'ExperimentContributed'; data: Counters & { experiment_id: string; user_id: string; spark_amount: number; at: string } }
  | { type: 'ExperimentVoteCast'; data: Counters & { vote: VoteRecord; intent_category: string } }
  | { type: 'ExperimentVoteRevised'; data: Counters & { vote: VoteRecord; intent_category: string } }
  | {
      type: 'ExperimentEvaluationStarted';
      data: { experiment_id: string; from: ExperimentStatus; status: 'evaluating'; goal_id: string; experiment_type: ExperimentType; iteration_strategy: string; at: string };
    }
  | { type: 'ExperimentDecided'; data: { experiment_id: string; from: ExperimentStatus; status: 'decided'; decision: string; rationale: DecisionRationale; at: string } }
  | { type: 'ExperimentEvolutionPaused'; data: { experiment_id: string; user_id: string; at: string } }
  | { type: 'ExperimentEvolutionResumed'; data: { experiment_id: string; user_id: string; at: string } };

export interface Experiment {
  status: ExperimentStatus;
  record: ExperimentRecord;
  /** in the order first cast */
  votes: VoteRecord[];
  totalVotes: number;
  contributorCount: number;
  fundingTotal: number;
  decision: string | null;
  rationale: DecisionRationale | null;
  evaluationGoalId: string | null;
  evolutionPaused: boolean;
  updatedAt: string;
}

export type ExperimentState = { status: 'none' } | Experiment;

export interface VoteInput {
  voteId: string;
  voterId: string;
  voterType: VoterType;
  value: number;
  confidence: number;
  reasoning: string;
  suggestion: string;
  constitutionalCheck: boolean;
  /** an admin's vote counts as the steward's */
  byAdmin: boolean;
}

export type ExperimentCommand =
  | { kind: 'propose'; record: Omit<ExperimentRecord, 'created_at' | 'voting_opens_at' | 'voting_closes_at' | 'evaluation_deadline'> }
  /** one step on, or to a later `target` */
  | { kind: 'advance'; target: string | null }
  | { kind: 'contribute'; userId: string; sparkAmount: number }
  | ({ kind: 'vote' } & VoteInput)
  | { kind: 'startEvaluation'; goalId: string; iterationStrategy: string }
  | { kind: 'decide'; decision: string }
  | { kind: 'setEvolutionPaused'; userId: string; isAdmin: boolean; paused: boolean };

export const experimentStreamId = (experimentId: string): string => `experiment-${experimentId}`;

const HOUR_MS = 3600_000;
const at = (now: Date, hours: number): string => new Date(now.getTime() + hours * HOUR_MS).toISOString();

/** The status one step after `status`; null after archived. */
export function nextStatus(status: ExperimentStatus): ExperimentStatus | null {
  const index = EXPERIMENT_STATUSES.indexOf(status);
  return index < EXPERIMENT_STATUSES.length - 1 ? EXPERIMENT_STATUSES[index + 1] : null;
}

const clamp = (value: number, min: number, max: number): number => Math.max(min, Math.min(max, value));

/** Whether the steward rule is met: a vote by the steward (or an admin). */
export const stewardVoted = (votes: readonly VoteRecord[]): boolean => votes.some((vote) => vote.is_steward);

const counters = (s: Experiment): Counters => ({ status: s.status, total_votes: s.totalVotes, contributor_count: s.contributorCount, funding_total: s.fundingTotal });

function existing(state: ExperimentState): Experiment {
  if (state.status === 'none') throw new DomainError('not_found', NOT_FOUND);
  return state;
}

function evolve(state: ExperimentState, event: ExperimentEvent): ExperimentState {
  if (event.type === 'ExperimentProposed') {
    return {
        status: 'proposed',
        record: event.data,
        votes: [],
        totalVotes: 0,
        contributorCount: 0,
        fundingTotal: 0,
        decision: null,
        rationale: null,
        evaluationGoalId: null,
        evolutionPaused: false,
      updatedAt: event.data.created_at,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'ExperimentAdvanced':
      return { ...state, status: event.data.status, updatedAt: event.data.at };
    case 'ExperimentContributed':
      return { ...state, contributorCount: event.data.contributor_count, fundingTotal: event.data.funding_total, updatedAt: event.data.at };
    case 'ExperimentVoteCast':
      return { ...state, votes: [...state.votes, event.data.vote], totalVotes: event.data.total_votes, updatedAt: event.data.vote.updated_at };
    case 'ExperimentVoteRevised': {
      const vote = event.data.vote;
      return { ...state, votes: state.votes.map((v) => (v.voter_id === vote.voter_id ? vote : v)), updatedAt: vote.updated_at };
    }
    case 'ExperimentEvaluationStarted':
      return { ...state, status: 'evaluating', evaluationGoalId: event.data.goal_id, updatedAt: event.data.at };
    case 'ExperimentDecided':
      return { ...state, status: 'decided', decision: event.data.decision, rationale: event.data.rationale, updatedAt: event.data.at };
    case 'ExperimentEvolutionPaused':
      return { ...state, evolutionPaused: true, updatedAt: event.data.at };
    case 'ExperimentEvolutionResumed':
      return { ...state, evolutionPaused: false, updatedAt: event.data.at };
    default:
      return assertNever(event);
  }
}

function decide(command: ExperimentCommand, state: ExperimentState, now: Date): ExperimentEvent[] {
  const time = now.toISOString();
  switch (command.kind) {
    case 'propose': {
      if (state.status !== 'none') throw new DomainError('conflict', 'experiment already exists');
      const record: ExperimentRecord = {
        ...command.record,
        created_at: time,
        voting_opens_at: at(now, DISCUSS_HOURS),
        voting_closes_at: at(now, DISCUSS_HOURS + VOTING_HOURS),
        evaluation_deadline: at(now, DISCUSS_HOURS + VOTING_HOURS + EVALUATION_HOURS),
      };
      return [{ type: 'ExperimentProposed', data: record }];
    }
    case 'advance': {
      // an unknown experiment is `cannot_advance` too (§17)
      if (state.status === 'none') throw new DomainError('invalid', CANNOT_ADVANCE);
      const current = EXPERIMENT_STATUSES.indexOf(state.status);
      let target: ExperimentStatus | null;
      if (command.target === null) target = nextStatus(state.status);
      else {
        const index = (EXPERIMENT_STATUSES as readonly string[]).indexOf(command.target);
        target = index > current ? EXPERIMENT_STATUSES[index] : null;
      }
      if (target === null) throw new DomainError('invalid', CANNOT_ADVANCE);
      return [{ type: 'ExperimentAdvanced', data: { experiment_id: state.record.experiment_id, from: state.status, status: target, at: time } }];
    }
    case 'contribute': {
      const s = existing(state);
      // every call counts a contributor; only a positive amount adds to the funding; no spark is taken (§17)
      const data = {
        ...counters(s),
        contributor_count: s.contributorCount + 1,
        funding_total: s.fundingTotal + Math.max(0, command.sparkAmount),
        experiment_id: s.record.experiment_id,
        user_id: command.userId,
        spark_amount: command.sparkAmount,
        at: time,
      };
      return [{ type: 'ExperimentContributed', data }];
    }
    case 'vote': {
      const s = existing(state);
      if (s.status !== 'discussing' && s.status !== 'voting') throw new DomainError('invalid', NOT_IN_VOTING_PHASE, { details: { current_status: s.status } });
      const rules = VOTER_RULES[s.record.decision_context];
      const previous = s.votes.find((v) => v.voter_id === command.voterId);
      // the voter's type is the one of the first vote
      const voterType = previous?.voter_type ?? command.voterType;
      if (voterType === 'agent' && !rules.agentCanVote) {
        throw new DomainError('invalid', VOTER_NOT_ELIGIBLE, { details: { reason: `agents_cannot_vote_on_${s.record.decision_context}`, context: s.record.decision_context } });
      }
      const vote: VoteRecord = {
        vote_id: previous?.vote_id ?? command.voteId,
        experiment_id: s.record.experiment_id,
        voter_id: command.voterId,
        voter_type: voterType,
        vote_value: clamp(Math.round(command.value), VOTE_MIN, VOTE_MAX),
        confidence: voterType === 'human' ? 1 : clamp(command.confidence, 0, 1),
        reasoning: command.reasoning,
        suggestion: command.suggestion,
        constitutional_check: command.constitutionalCheck,
        is_steward: command.voterId === STEWARD_VOTER_ID || command.byAdmin || (previous?.is_steward ?? false),
        created_at: previous?.created_at ?? time,
        updated_at: time,
      };
      const intent = s.record.intent_category;
      if (previous) return [{ type: 'ExperimentVoteRevised', data: { ...counters(s), vote, intent_category: intent } }];
      return [{ type: 'ExperimentVoteCast', data: { ...counters(s), total_votes: s.totalVotes + 1, vote, intent_category: intent } }];
    }
    case 'startEvaluation': {
      const s = existing(state);
      if (s.status === 'decided' || s.status === 'archived') throw new DomainError('invalid', CANNOT_EVALUATE, { details: { current_status: s.status } });
      return [
        {
          type: 'ExperimentEvaluationStarted',
          data: {
            experiment_id: s.record.experiment_id,
            from: s.status,
            status: 'evaluating',
            goal_id: command.goalId,
            experiment_type: s.record.experiment_type,
            iteration_strategy: command.iterationStrategy,
            at: time,
          },
        },
      ];
    }
    case 'decide': {
      const s = existing(state);
      if (s.status === 'archived') throw new DomainError('invalid', CANNOT_ADVANCE);
      const context = s.record.decision_context;
      if (VOTER_RULES[context].stewardRequired && !stewardVoted(s.votes)) throw new DomainError('invalid', STEWARD_VOTE_REQUIRED, { details: { context } });
      const rationale: DecisionRationale = { tally: tallyVotes(s.record.experiment_id, context, s.votes), agent_evaluations: [], decided_at: time };
      return [{ type: 'ExperimentDecided', data: { experiment_id: s.record.experiment_id, from: s.status, status: 'decided', decision: command.decision, rationale, at: time } }];
    }
    case 'setEvolutionPaused': {
      const s = existing(state);
      if (command.userId !== s.record.creator_id && !command.isAdmin) throw new DomainError('forbidden', NOT_THE_OWNER);
      if (s.evolutionPaused === command.paused) return [];
      const data = { experiment_id: s.record.experiment_id, user_id: command.userId, at: time };
      return [command.paused ? { type: 'ExperimentEvolutionPaused', data } : { type: 'ExperimentEvolutionResumed', data }];
    }
    default:
      return assertNever(command);
  }
}

export const experimentDecider: Decider<ExperimentState, ExperimentCommand, ExperimentEvent> = { initialState: { status: 'none' }, evolve, decide };
