/**
 * The vote rules of thought experiments (social-routes §21.4): the decision
 * context of an experiment says who may vote, how an agent's vote weighs,
 * the approval threshold and whether a steward must vote before a decision;
 * the tally weighs the votes by it. Pure functions, shared by the decider
 * (eligibility, the decision's rationale) and the reads (the tally of
 * GET /experiments/{id}).
 */

export const DECISION_CONTEXTS = ['security_guardrail', 'technical_improvement', 'business_revenue', 'operational_tuning'] as const;
export type DecisionContext = (typeof DECISION_CONTEXTS)[number];

export interface VoterRules {
  agentCanVote: boolean;
  /** an agent's vote weighs confidence × agentWeight; a human's always 1 */
  agentWeight: number;
  approvalThreshold: number;
  /** a decision needs a steward's vote first */
  stewardRequired: boolean;
}

export const VOTER_RULES: Readonly<Record<DecisionContext, VoterRules>> = {
  security_guardrail: { agentCanVote: false, agentWeight: 0, approvalThreshold: 0.8, stewardRequired: true },
  technical_improvement: { agentCanVote: true, agentWeight: 0.6, approvalThreshold: 0.5, stewardRequired: false },
  business_revenue: { agentCanVote: true, agentWeight: 0.8, approvalThreshold: 0.5, stewardRequired: false },
  operational_tuning: { agentCanVote: true, agentWeight: 1.0, approvalThreshold: 0.3, stewardRequired: false },
};

export const DEFAULT_DECISION_CONTEXT: DecisionContext = 'technical_improvement';

/** The keywords of each context, looked for in the lower-cased title and hypothesis. */
export const CONTEXT_KEYWORDS: Readonly<Record<DecisionContext, readonly string[]>> = {
  security_guardrail: ['security', 'guardrail', 'master key', 'circuit breaker', 'kill switch', 'permission', 'access control', 'authentication', 'certificate', 'encryption', 'firewall', 'vulnerability'],
  technical_improvement: ['performance', 'optimization', 'refactor', 'architecture', 'algorithm', 'latency', 'throughput', 'scalability', 'bug fix', 'improvement', 'upgrade', 'migration'],
  business_revenue: ['revenue', 'pricing', 'monetization', 'subscription', 'trading', 'investment', 'profit', 'ad revenue', 'business model', 'marketplace', 'commercial'],
  operational_tuning: ['threshold', 'timeout', 'interval', 'batch size', 'cache', 'tuning', 'parameter', 'configuration', 'polling', 'retry', 'rate limit'],
};

export const isDecisionContext = (value: unknown): value is DecisionContext => typeof value === 'string' && (DECISION_CONTEXTS as readonly string[]).includes(value);

/**
 * The context whose keywords occur most often in title and hypothesis (each
 * keyword counted once); a tie goes to the context listed first; no keyword
 * at all: technical_improvement.
 */
export function classifyDecisionContext(title: string, hypothesis: string): DecisionContext {
  const text = `${title} ${hypothesis}`.toLowerCase();
  let best: DecisionContext = DEFAULT_DECISION_CONTEXT;
  let bestScore = 0;
  for (const context of DECISION_CONTEXTS) {
    const score = CONTEXT_KEYWORDS[context].filter((keyword) => text.includes(keyword)).length;
    if (score > bestScore) {
      best = context;
      bestScore = score;
    }
  }
  return best;
}

export type VoterType = 'human' | 'agent';

/** What the tally reads of a vote. */
export interface TalliedVote {
  voter_id: string;
  voter_type: VoterType;
  vote_value: number;
  confidence: number;
  suggestion: string;
}

export interface Tally {
  experiment_id: string;
  total_votes: number;
  human_votes: number;
  agent_votes: number;
  /** Σ weight of the votes above 0, below 0 (2 decimals) */
  total_for: number;
  total_against: number;
  /** Σ(value·weight) / Σweight, 0 without weight (4 decimals) */
  weighted_score: number;
  total_weight: number;
  suggestions: { voter_id: string; voter_type: VoterType; suggestion: string }[];
  decision_context: DecisionContext;
  approval_threshold: number;
  /** approve above the threshold, reject below its negative, else inconclusive */
  decision_recommendation: 'approve' | 'reject' | 'inconclusive';
}

const round = (value: number, places: number): number => {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
};

/** The weighted tally of §21.4. */
export function tallyVotes(experimentId: string, context: DecisionContext, votes: readonly TalliedVote[]): Tally {
  const rules = VOTER_RULES[context];
  let totalFor = 0;
  let totalAgainst = 0;
  let weightedSum = 0;
  let totalWeight = 0;
  let human = 0;
  let agent = 0;
  const suggestions: Tally['suggestions'] = [];
  for (const vote of votes) {
    let weight: number;
    if (vote.voter_type === 'human') {
      weight = 1;
      human += 1;
    } else {
      weight = vote.confidence * rules.agentWeight;
      agent += 1;
    }
    weightedSum += vote.vote_value * weight;
    totalWeight += weight;
    if (vote.vote_value > 0) totalFor += weight;
    else if (vote.vote_value < 0) totalAgainst += weight;
    if (vote.suggestion) suggestions.push({ voter_id: vote.voter_id, voter_type: vote.voter_type, suggestion: vote.suggestion });
  }
  const weighted = totalWeight > 0 ? weightedSum / totalWeight : 0;
  const threshold = rules.approvalThreshold;
  return {
    experiment_id: experimentId,
    total_votes: votes.length,
    human_votes: human,
    agent_votes: agent,
    total_for: round(totalFor, 2),
    total_against: round(totalAgainst, 2),
    weighted_score: round(weighted, 4),
    total_weight: round(totalWeight, 2),
    suggestions,
    decision_context: context,
    approval_threshold: threshold,
    decision_recommendation: weighted > threshold ? 'approve' : weighted < -threshold ? 'reject' : 'inconclusive',
  };
}
