import { deciderKit } from '../../../test/support/decider-kit';
import { experimentDecider, type ExperimentCommand, type ExperimentEvent, type ExperimentState, type VoteInput } from './experiment';
import type { DecisionContext } from './voting-rules';

const t0 = new Date('2026-12-01T10:00:00.000Z');
const later = new Date('2026-12-02T10:00:00.000Z');
const { given, history } = deciderKit(experimentDecider, t0);

const propose = (context: DecisionContext = 'technical_improvement', creator = 'ann'): ExperimentCommand => ({
  kind: 'propose',
  record: {
    experiment_id: 'e1',
    post_id: 'p1',
    creator_id: creator,
    title: 'Faster feeds',
    hypothesis: 'Caching helps',
    expected_outcome: 'Lower latency',
    intent_category: 'technology',
    decision_type: 'weighted',
    decision_context: context,
    experiment_type: 'traditional',
    is_core_ip: false,
    parent_experiment_id: null,
  },
});
const advance = (target: string | null = null): ExperimentCommand => ({ kind: 'advance', target });
const vote = (voterId: string, input: Partial<VoteInput> = {}): ExperimentCommand => ({
  kind: 'vote',
  voteId: `v-${voterId}`,
  voterId,
  voterType: 'human',
  value: 1,
  confidence: 1,
  reasoning: '',
  suggestion: '',
  constitutionalCheck: true,
  byAdmin: false,
  ...input,
});
const proposed = (context?: DecisionContext) => history(propose(context));
const discussing = (context?: DecisionContext) => history(propose(context), advance());
const stateOf = (events: ExperimentEvent[]): Exclude<ExperimentState, { status: 'none' }> => {
  const state = given(...events).state();
  if (state.status === 'none') throw new Error('expected an experiment');
  return state;
};

describe('a thought experiment', () => {
  it('given nothing, when proposed, then it is proposed with voting 48 h on, closing 72 h later, evaluation due 24 h after that', () => {
    const [event] = given().when(propose()).events();
    expect(event).toEqual({
      type: 'ExperimentProposed',
      data: expect.objectContaining({
        experiment_id: 'e1',
        created_at: '2026-12-01T10:00:00.000Z',
        voting_opens_at: '2026-12-03T10:00:00.000Z',
        voting_closes_at: '2026-12-06T10:00:00.000Z',
        evaluation_deadline: '2026-12-07T10:00:00.000Z',
      }),
    });
  });

  it('given a proposed experiment, when proposed again, then it is a conflict', () => given(...proposed()).when(propose()).thenRefused('conflict'));

  describe('advance', () => {
    it('given proposed, when advanced without a target, then it is discussing', () =>
      given(...proposed())
        .when(advance(), later)
        .then({ type: 'ExperimentAdvanced', data: { experiment_id: 'e1', from: 'proposed', status: 'discussing', at: later.toISOString() } }));

    it('given proposed, when advanced to decided, then it jumps there', () => expect(given(...proposed()).when(advance('decided')).state().status).toBe('decided'));

    it.each([['proposed'], ['unknown'], ['Discussing']])('given proposed, when advanced to %s (not later), then cannot_advance', (target) =>
      given(...proposed()).when(advance(target)).thenRefused('invalid', 'cannot_advance'));

    it('given archived, when advanced, then cannot_advance', () => given(...history(propose(), advance('archived'))).when(advance()).thenRefused('invalid', 'cannot_advance'));

    it('given no experiment, when advanced, then cannot_advance', () => given().when(advance()).thenRefused('invalid', 'cannot_advance'));
  });

  describe('contribute', () => {
    it('given an experiment, when contributed to twice with 5 and -3, then 2 contributors and 5 funded', () => {
      const events = history(propose(), { kind: 'contribute', userId: 'bob', sparkAmount: 5 }, { kind: 'contribute', userId: 'bob', sparkAmount: -3 });
      expect(stateOf(events)).toMatchObject({ contributorCount: 2, fundingTotal: 5 });
    });

    it('given no experiment, when contributed to, then not_found', () => given().when({ kind: 'contribute', userId: 'bob', sparkAmount: 5 }).thenRefused('not_found', 'not_found'));
  });

  describe('vote', () => {
    it('given a proposed experiment, when voted on, then experiment_not_in_voting_phase', () => given(...proposed()).when(vote('bob')).thenRefused('invalid', 'experiment_not_in_voting_phase'));

    it.each([['evaluating'], ['decided']])('given a %s experiment, when voted on, then experiment_not_in_voting_phase', (status) =>
      given(...history(propose(), advance(status))).when(vote('bob')).thenRefused('invalid', 'experiment_not_in_voting_phase'));

    it('given a discussing experiment, when a human votes 5 with confidence 0.2, then the vote is clamped to 2 with confidence 1 and total_votes is 1', () => {
      const [event] = given(...discussing()).when(vote('bob', { value: 5, confidence: 0.2 })).events();
      expect(event.type).toBe('ExperimentVoteCast');
      expect(event.data).toMatchObject({ total_votes: 1, vote: { voter_id: 'bob', vote_value: 2, confidence: 1, is_steward: false } });
    });

    it('given an agent voting -7 with confidence 3, then -2 and confidence 1; with -0.4 confidence, 0', () => {
      const [a] = given(...discussing()).when(vote('bot', { voterType: 'agent', value: -7, confidence: 3 })).events();
      expect(a.data).toMatchObject({ vote: { vote_value: -2, confidence: 1 } });
      const [b] = given(...discussing()).when(vote('bot', { voterType: 'agent', confidence: -0.4 })).events();
      expect(b.data).toMatchObject({ vote: { confidence: 0 } });
    });

    it('given a vote by bob, when bob votes again, then it is revised and total_votes stays 1', () => {
      const past = history(propose(), advance(), vote('bob', { value: 1 }));
      const [event] = given(...past).when(vote('bob', { value: -1, reasoning: 'changed my mind' }), later).events();
      expect(event).toMatchObject({ type: 'ExperimentVoteRevised', data: { total_votes: 1, vote: { vote_id: 'v-bob', vote_value: -1, reasoning: 'changed my mind', created_at: t0.toISOString(), updated_at: later.toISOString() } } });
      expect(stateOf([...past, event]).votes).toHaveLength(1);
    });

    it('given a security experiment, when an agent votes, then voter_not_eligible', () =>
      given(...discussing('security_guardrail')).when(vote('bot', { voterType: 'agent' })).thenRefused('invalid', 'voter_not_eligible'));

    it('given a security experiment, when a human votes, then it counts', () => expect(given(...discussing('security_guardrail')).when(vote('bob')).events()).toHaveLength(1));

    it('given no experiment, when voted on, then not_found', () => given().when(vote('bob')).thenRefused('not_found', 'not_found'));
  });

  describe('decide', () => {
    const decide: ExperimentCommand = { kind: 'decide', decision: 'adopt it' };

    it('given votes, when decided, then decided with the tally as rationale', () => {
      const past = history(propose(), advance('voting'), vote('bob', { value: 2 }), vote('bot', { voterType: 'agent', value: -1, confidence: 0.5 }));
      const [event] = given(...past).when(decide, later).events();
      expect(event).toMatchObject({
        type: 'ExperimentDecided',
        data: { status: 'decided', decision: 'adopt it', rationale: { agent_evaluations: [], decided_at: later.toISOString(), tally: { total_votes: 2, human_votes: 1, agent_votes: 1, total_weight: 1.3 } } },
      });
    });

    it('given a security experiment without a steward vote, when decided, then steward_vote_required', () =>
      given(...history(propose('security_guardrail'), advance('voting'), vote('bob'))).when(decide).thenRefused('invalid', 'steward_vote_required'));

    it('given a security experiment the steward voted on, when decided, then decided', () =>
      expect(given(...history(propose('security_guardrail'), advance('voting'), vote('steward'))).when(decide).state().status).toBe('decided'));

    it('given a security experiment an admin voted on, when decided, then decided', () =>
      expect(given(...history(propose('security_guardrail'), advance('voting'), vote('root', { byAdmin: true }))).when(decide).state().status).toBe('decided'));

    it('given an archived experiment, when decided, then cannot_advance', () => given(...history(propose(), advance('archived'))).when(decide).thenRefused('invalid', 'cannot_advance'));
  });

  describe('evaluation and evolution', () => {
    it('given a voting experiment, when its evaluation starts, then it is evaluating with the goal', () =>
      expect(given(...history(propose(), advance('voting'))).when({ kind: 'startEvaluation', goalId: 'g1', iterationStrategy: 'reason_and_refine' }).state()).toMatchObject({
        status: 'evaluating',
        evaluationGoalId: 'g1',
      }));

    it('given a decided experiment, when its evaluation starts, then cannot_evaluate', () =>
      given(...history(propose(), advance('decided'))).when({ kind: 'startEvaluation', goalId: 'g1', iterationStrategy: 'x' }).thenRefused('invalid', 'cannot_evaluate'));

    it('given another user, when pausing, then forbidden; the owner pauses once, an admin resumes', () => {
      given(...proposed()).when({ kind: 'setEvolutionPaused', userId: 'bob', isAdmin: false, paused: true }).thenRefused('forbidden');
      const paused = given(...proposed()).when({ kind: 'setEvolutionPaused', userId: 'ann', isAdmin: false, paused: true }).events();
      expect(paused.map((e) => e.type)).toEqual(['ExperimentEvolutionPaused']);
      given(...proposed(), ...paused).when({ kind: 'setEvolutionPaused', userId: 'ann', isAdmin: false, paused: true }).thenNothing();
      expect(given(...proposed(), ...paused).when({ kind: 'setEvolutionPaused', userId: 'root', isAdmin: true, paused: false }).state()).toMatchObject({ evolutionPaused: false });
    });
  });
});
