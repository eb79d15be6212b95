import { classifyDecisionContext, type TalliedVote, tallyVotes } from './voting-rules';

const human = (voter: string, value: number, suggestion = ''): TalliedVote => ({ voter_id: voter, voter_type: 'human', vote_value: value, confidence: 1, suggestion });
const agent = (voter: string, value: number, confidence: number): TalliedVote => ({ voter_id: voter, voter_type: 'agent', vote_value: value, confidence, suggestion: '' });

describe('decision contexts', () => {
  it.each([
    ['Rotate the master key', 'encryption at rest', 'security_guardrail'],
    ['Faster feeds', 'lower latency and better throughput', 'technical_improvement'],
    ['New pricing', 'a subscription raises revenue', 'business_revenue'],
    ['Retry policy', 'a longer timeout and cache', 'operational_tuning'],
    ['A picnic', 'people like picnics', 'technical_improvement'],
  ])('given "%s: %s", then %s', (title, hypothesis, context) => expect(classifyDecisionContext(title, hypothesis)).toBe(context));

  it('given a tie, then the context listed first wins', () => expect(classifyDecisionContext('security and pricing', '')).toBe('security_guardrail'));

  it('given upper case, then keywords still match', () => expect(classifyDecisionContext('FIREWALL', '')).toBe('security_guardrail'));
});

describe('the weighted tally (§21.4)', () => {
  it('given no votes, then a score of 0 and inconclusive', () =>
    expect(tallyVotes('e1', 'technical_improvement', [])).toEqual({
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
    }));

  it('given a human +2 and an agent -1 at confidence 0.5 on technical improvement, then the agent weighs 0.3 and the score is 1.7/1.3', () => {
    const tally = tallyVotes('e1', 'technical_improvement', [human('ann', 2, 'try it'), agent('bot', -1, 0.5)]);
    expect(tally).toMatchObject({
      total_votes: 2,
      human_votes: 1,
      agent_votes: 1,
      total_for: 1,
      total_against: 0.3,
      total_weight: 1.3,
      weighted_score: Math.round((1.7 / 1.3) * 10_000) / 10_000,
      decision_recommendation: 'approve',
      suggestions: [{ voter_id: 'ann', voter_type: 'human', suggestion: 'try it' }],
    });
  });

  it('given operational tuning, then an agent weighs its confidence and the threshold is 0.3', () => {
    const tally = tallyVotes('e1', 'operational_tuning', [agent('bot', 1, 0.4), human('ann', 0, '')]);
    expect(tally).toMatchObject({ total_weight: 1.4, weighted_score: Math.round((0.4 / 1.4) * 10_000) / 10_000, approval_threshold: 0.3, decision_recommendation: 'inconclusive' });
  });

  it('given a score exactly at the threshold, then inconclusive; below its negative, reject', () => {
    expect(tallyVotes('e1', 'business_revenue', [human('a', 1), human('b', 0)]).decision_recommendation).toBe('inconclusive');
    expect(tallyVotes('e1', 'business_revenue', [human('a', -1), human('b', -1), human('c', 1)]).decision_recommendation).toBe('inconclusive');
    expect(tallyVotes('e1', 'business_revenue', [human('a', -2), human('b', 0)]).decision_recommendation).toBe('reject');
  });

  it('given a security context, then the threshold is 0.8', () => expect(tallyVotes('e1', 'security_guardrail', [human('a', 1)]).approval_threshold).toBe(0.8));
});
