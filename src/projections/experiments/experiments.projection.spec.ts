import { applyAll, recorded } from '../../../test/support/projection-kit';
import type { ExperimentRecord, VoteRecord } from '../../aggregates/experiments/experiment';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { EXPERIMENT_VOTES, EXPERIMENTS, experimentsProjection } from './experiments.projection';

const at = '2026-12-01T10:00:00.000Z';
const record: ExperimentRecord = {
  experiment_id: 'e1',
  post_id: 'p1',
  creator_id: 'ann',
  title: 'T',
  hypothesis: 'H',
  expected_outcome: '',
  intent_category: 'health',
  decision_type: 'weighted',
  decision_context: 'technical_improvement',
  experiment_type: 'traditional',
  is_core_ip: false,
  parent_experiment_id: null,
  created_at: at,
  voting_opens_at: at,
  voting_closes_at: at,
  evaluation_deadline: at,
};
const vote = (value: number, updatedAt = at): VoteRecord => ({
  vote_id: 'v1',
  experiment_id: 'e1',
  voter_id: 'bob',
  voter_type: 'human',
  vote_value: value,
  confidence: 1,
  reasoning: '',
  suggestion: '',
  constitutional_check: true,
  is_steward: false,
  created_at: at,
  updated_at: updatedAt,
});
const counters = { status: 'discussing' as const, contributor_count: 0, funding_total: 0 };

describe('the experiment read models', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  it('given a proposal, a step, a vote cast then revised, then one experiment with total_votes 1 and one vote as last cast', async () => {
    const cast = recorded('ExperimentVoteCast', { ...counters, total_votes: 1, vote: vote(1), intent_category: 'health' });
    await applyAll(
      experimentsProjection,
      store,
      recorded('ExperimentProposed', record),
      recorded('ExperimentAdvanced', { experiment_id: 'e1', from: 'proposed', status: 'discussing', at }),
      cast,
      recorded('ExperimentVoteRevised', { ...counters, total_votes: 1, vote: vote(-2, '2026-12-02T10:00:00.000Z'), intent_category: 'health' }),
    );
    expect(await store.collection(EXPERIMENTS).findOne({ _id: 'e1' })).toMatchObject({ status: 'discussing', total_votes: 1, creator_id: 'ann', evolution_paused: false });
    const votes = await store.collection(EXPERIMENT_VOTES).find({ experiment_id: 'e1' });
    expect(votes).toEqual([expect.objectContaining({ _id: 'e1:bob', vote_value: -2, intent_category: 'health', updated_at: '2026-12-02T10:00:00.000Z' })]);
    // a redelivered cast changes nothing
    await applyAll(experimentsProjection, store, cast);
    expect(await store.collection(EXPERIMENT_VOTES).findOne({ _id: 'e1:bob' })).toMatchObject({ vote_value: -2 });
  });

  it('given contributions, a decision and a pause, then the counters, the decision and the flag', async () => {
    await applyAll(
      experimentsProjection,
      store,
      recorded('ExperimentProposed', record),
      recorded('ExperimentContributed', { ...counters, status: 'proposed', total_votes: 0, contributor_count: 2, funding_total: 9, experiment_id: 'e1', user_id: 'bob', spark_amount: 4, at }),
      recorded('ExperimentEvolutionPaused', { experiment_id: 'e1', user_id: 'ann', at }),
      recorded('ExperimentDecided', {
        experiment_id: 'e1',
        from: 'proposed',
        status: 'decided',
        decision: 'adopt',
        rationale: {
          tally: {
            experiment_id: 'e1',
            total_votes: 0,
            human_votes: 0,
            agent_votes: 0,
            total_for: 0,
            total_against: 0,
            weighted_score: 0,
            total_weight: 0,
            suggestions: [],
            decision_context: 'technical_improvement',
            approval_threshold: 0.5,
            decision_recommendation: 'inconclusive',
          },
          agent_evaluations: [],
          decided_at: at,
        },
        at,
      }),
    );
    expect(await store.collection(EXPERIMENTS).findOne({ _id: 'e1' })).toMatchObject({
      contributor_count: 2,
      funding_total: 9,
      status: 'decided',
      decision_outcome: 'adopt',
      evolution_paused: true,
      decision_rationale: { agent_evaluations: [], tally: { decision_recommendation: 'inconclusive' } },
    });
  });
});
