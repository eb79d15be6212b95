/**
 * The thought-experiment read models (social-routes §17):
 * - `experiments`: one document per experiment (`_id` its id): the record as
 *   proposed, its status, counters, decision and evolution flag; listed by
 *   status and creation time, and by core-IP flag.
 * - `experiment_votes`: one document per (experiment, voter) (`_id`
 *   `<experiment>:<voter>`), the vote as last cast, with the experiment's
 *   intent category (the discovery score counts a user's votes by category).
 *
 * The events carry the counters as the stream computed them, so a
 * document only ever takes them ($set): a replay lands on the same values.
 */
import type { DecisionRationale, ExperimentRecord, ExperimentStatus, VoteRecord } from '../../aggregates/experiments/experiment';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type RecordedOf } from '../support/define-projection';

export const EXPERIMENTS = 'experiments';
export const EXPERIMENT_VOTES = 'experiment_votes';

/** An experiment as the read model holds it (and a command's outcome reads). */
export interface ExperimentFields extends ExperimentRecord {
  status: ExperimentStatus;
  total_votes: number;
  contributor_count: number;
  funding_total: number;
  decision_outcome: string | null;
  decision_rationale: DecisionRationale | null;
  evaluation_goal_id: string | null;
  evolution_paused: boolean;
  updated_at: string;
}

export interface ExperimentDoc extends Doc, ExperimentFields {}

export interface ExperimentVoteDoc extends Doc, VoteRecord {
  intent_category: string;
}

export const voteDocId = (experimentId: string, voterId: string): string => `${experimentId}:${voterId}`;

function onVote(event: RecordedOf<'ExperimentVoteCast'> | RecordedOf<'ExperimentVoteRevised'>, writer: Parameters<typeof applyOnce>[0]): void {
  const { vote, intent_category, total_votes } = event.data;
  applyOnce(writer, EXPERIMENT_VOTES, voteDocId(vote.experiment_id, vote.voter_id), event, { $set: { ...vote, intent_category } });
  applyOnce(writer, EXPERIMENTS, vote.experiment_id, event, { $set: { total_votes, updated_at: vote.updated_at } }, { upsert: false });
}

export const experimentsProjection = defineProjection({
  name: 'experiments',
  version: 1,
  collections: [EXPERIMENTS, EXPERIMENT_VOTES],
  indexes: [
    { collection: EXPERIMENTS, spec: { keys: { status: 1, created_at: -1 } } },
    { collection: EXPERIMENTS, spec: { keys: { created_at: -1 } } },
    { collection: EXPERIMENTS, spec: { keys: { is_core_ip: 1, created_at: -1 } } },
    { collection: EXPERIMENT_VOTES, spec: { keys: { experiment_id: 1, created_at: 1 } } },
    { collection: EXPERIMENT_VOTES, spec: { keys: { voter_id: 1 } } },
  ],
  on: {
    ExperimentProposed: (event, writer) =>
      applyOnce(writer, EXPERIMENTS, event.data.experiment_id, event, {
        $set: {
          ...event.data,
          status: 'proposed',
          total_votes: 0,
          contributor_count: 0,
          funding_total: 0,
          decision_outcome: null,
          decision_rationale: null,
          evaluation_goal_id: null,
          evolution_paused: false,
          updated_at: event.data.created_at,
        },
      }),
    ExperimentAdvanced: (event, writer) =>
      applyOnce(writer, EXPERIMENTS, event.data.experiment_id, event, { $set: { status: event.data.status, updated_at: event.data.at } }, { upsert: false }),
    ExperimentContributed: (event, writer) => {
      const { experiment_id, contributor_count, funding_total, at } = event.data;
      applyOnce(writer, EXPERIMENTS, experiment_id, event, { $set: { contributor_count, funding_total, updated_at: at } }, { upsert: false });
    },
    ExperimentVoteCast: onVote,
    ExperimentVoteRevised: onVote,
    ExperimentEvaluationStarted: (event, writer) =>
      applyOnce(writer, EXPERIMENTS, event.data.experiment_id, event, { $set: { status: 'evaluating', evaluation_goal_id: event.data.goal_id, updated_at: event.data.at } }, { upsert: false }),
    ExperimentDecided: (event, writer) => {
      const { experiment_id, decision, rationale, at } = event.data;
      applyOnce(writer, EXPERIMENTS, experiment_id, event, { $set: { status: 'decided', decision_outcome: decision, decision_rationale: rationale, updated_at: at } }, { upsert: false });
    },
    ExperimentEvolutionPaused: (event, writer) =>
      applyOnce(writer, EXPERIMENTS, event.data.experiment_id, event, { $set: { evolution_paused: true, updated_at: event.data.at } }, { upsert: false }),
    ExperimentEvolutionResumed: (event, writer) =>
      applyOnce(writer, EXPERIMENTS, event.data.experiment_id, event, { $set: { evolution_paused: false, updated_at: event.data.at } }, { upsert: false }),
  },
});
