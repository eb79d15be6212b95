/** The JSON Schemas of the thought-experiment replies (social-routes §17), for the OpenAPI document. */
import { DECISION_CONTEXTS } from '../../aggregates/experiments/voting-rules';
import { EXPERIMENT_STATUSES, EXPERIMENT_TYPES } from '../../aggregates/experiments/experiment';
import { USER_VIEW } from '../accounts/accounts.replies';
import { bool, int, list, num, obj, oneOf, orNull, str } from '../common/openapi';

const time = () => str({ format: 'date-time' });

export const TALLY = obj({
  experiment_id: str(),
  total_votes: int(),
  human_votes: int(),
  agent_votes: int(),
  total_for: num(),
  total_against: num(),
  weighted_score: num(),
  total_weight: num(),
  suggestions: list(obj({ voter_id: str(), voter_type: oneOf(['human', 'agent']), suggestion: str() })),
  decision_context: oneOf(DECISION_CONTEXTS),
  approval_threshold: num(),
  decision_recommendation: oneOf(['approve', 'reject', 'inconclusive']),
});

export const EXPERIMENT = obj({
  id: str(),
  post_id: str(),
  creator_id: str(),
  title: str(),
  hypothesis: str(),
  expected_outcome: str(),
  intent_category: str(),
  status: oneOf(EXPERIMENT_STATUSES),
  decision_type: str(),
  decision_context: oneOf(DECISION_CONTEXTS),
  experiment_type: oneOf(EXPERIMENT_TYPES),
  is_core_ip: bool(),
  parent_experiment_id: orNull(str()),
  voting_opens_at: time(),
  voting_closes_at: time(),
  evaluation_deadline: time(),
  total_votes: int(),
  contributor_count: int(),
  funding_total: num(),
  decision_outcome: orNull(str()),
  decision_rationale: orNull(obj({ tally: TALLY, agent_evaluations: list({}), decided_at: time() })),
  evaluation_goal_id: orNull(str()),
  evolution_paused: bool(),
  created_at: time(),
  updated_at: time(),
});

export const VOTE = obj({
  id: str(),
  experiment_id: str(),
  voter_id: str(),
  voter_type: oneOf(['human', 'agent']),
  vote_value: int({ minimum: -2, maximum: 2 }),
  confidence: num({ minimum: 0, maximum: 1 }),
  reasoning: str(),
  suggestion: str(),
  constitutional_check: bool(),
  created_at: time(),
  updated_at: time(),
});

const props = (schema: Record<string, unknown>) => schema.properties as Record<string, Record<string, unknown>>;

export const EXPERIMENT_DETAIL = obj({ ...props(EXPERIMENT), votes: list(VOTE), tally: TALLY });

export const DISCOVERED = obj({
  ...props(EXPERIMENT),
  discovery_score: num(),
  view_count: int(),
  comment_count: int(),
  upvotes: int(),
  downvotes: int(),
  author: orNull(USER_VIEW),
});

export const DISCOVER_PAGE = obj({
  success: { const: true },
  data: list(DISCOVERED),
  meta: obj({ total: int(), limit: int(), offset: int(), has_more: bool(), user_intents: { type: 'object', additionalProperties: int() } }),
});

export const METRICS = obj({
  experiment_id: str(),
  experiment_type: oneOf(EXPERIMENT_TYPES),
  contributor_count: int(),
  funding_total: num(),
  total_votes: int(),
  status: oneOf(EXPERIMENT_STATUSES),
  human_voters: int(),
  agent_voters: int(),
  vote_distribution: obj({ support: int(), oppose: int(), neutral: int() }),
  view_count: int(),
  comment_count: int(),
  compute_nodes: int(),
  total_gpu_hours: num(),
  total_inferences: int(),
});

export const TIMELINE = obj({
  experiment_id: str(),
  status: oneOf(EXPERIMENT_STATUSES),
  created_at: time(),
  voting_opens_at: time(),
  voting_closes_at: time(),
  evaluation_deadline: time(),
  is_voting_open: bool(),
  time_until_voting: num({ minimum: 0, description: 'seconds' }),
});

export const EVALUATION = {
  anyOf: [
    obj({ success: { const: true }, goal_id: str(), experiment_type: oneOf(EXPERIMENT_TYPES), iteration_strategy: str() }),
    obj({ success: { const: false }, reason: str(), error: str({ description: 'the reason again (the error envelope)' }) }),
  ],
};

export const AUTO_EVOLVE_STATUS = obj({
  started: bool(),
  status: oneOf(['not_started']),
  paused_experiments: int(),
  message: str(),
});
