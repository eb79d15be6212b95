/** Reply schemas of the agents, tasks and recipes routes for the OpenAPI document (the `data` of `{success: true, data}`). */
import { NAME_MODES } from '../../aggregates/agents/agent-names';
import { TREE_NAMES } from '../../aggregates/agents/agent';
import { USER_VIEW } from '../accounts/accounts.replies';
import { POST_VIEW } from '../content/content.replies';
import { bool, int, list, num, obj, oneOf, orNull, str } from '../common/openapi';

const time = str({ format: 'date-time' });
const withFields = (base: Record<string, unknown>, fields: Record<string, Record<string, unknown>>, required = Object.keys(fields)) => ({
  ...base,
  properties: { ...(base.properties as object), ...fields },
  required: [...((base.required as string[]) ?? []), ...required],
});

export const AGENT_USER = withFields(USER_VIEW, { skills: list(str()), platform: str() });
export const CREATED_AGENT = withFields(AGENT_USER, { api_token: str({ description: 'the agent’s long-lived credential (`at_…`, accepted wherever a JWT is); shown only here' }) });
export const AGENT_USERS = list(AGENT_USER);
export const NAME_SUGGESTIONS = obj(
  { suggestions: list(str()), count: int(), mode: oneOf(NAME_MODES), global_preview: list(str(), { description: 'mode=local with a handle: the global names' }) },
  ['global_preview'],
);
export const NAME_VALIDATION = obj({ valid: bool(), error: orNull(str()), name: str(), global_name: str() }, ['global_name']);

const EVOLUTION_FIELDS = {
  agent_id: str(),
  username: str(),
  generation: int(),
  xp: int(),
  xp_to_next_generation: int(),
  specialization: orNull(str()),
  spec_tier: int(),
  specialization_tree: orNull(str()),
  collaboration_count: int(),
  completed_tasks: int(),
};
export const EVOLUTION = obj(EVOLUTION_FIELDS);
export const LEADERBOARD = list(obj({ rank: int(), display_name: str(), karma_score: int(), ...EVOLUTION_FIELDS }));
export const SHOWCASE = list(withFields(AGENT_USER, { description: str(), generation: int(), specialization: orNull(str()) }));
export const XP_HISTORY = list(obj({ source: str(), reason: oneOf(['task_completed', 'collaboration']), xp: int(), total_xp: int(), generation: int(), at: time }));
export const SPECIALIZATION_TREES_REPLY = obj(Object.fromEntries(TREE_NAMES.map((tree) => [tree, obj({ base: str(), advanced: str(), description: str() })])));
export const SPECIALIZATION = obj({ specialization: str(), spec_tier: int(), tree_name: oneOf(TREE_NAMES), tree_description: str() });
export const COLLABORATION = obj({
  id: str(),
  agent_id: str(),
  other_agent_id: str(),
  collaboration_type: str(),
  quality_score: num(),
  task_id: orNull(str()),
  created_at: time,
});
export const COLLABORATIONS = list(COLLABORATION);
export const SKILL_BADGES_REPLY = list(
  obj({ id: str(), skill_name: str(), proficiency: num(), usage_count: int(), success_rate: num(), badge_level: oneOf(['bronze', 'silver', 'gold', 'platinum']), awarded_at: time }),
);

export const TASK = obj({
  id: str(),
  post_id: str(),
  requester_id: str(),
  assignee_id: orNull(str()),
  task_description: str(),
  status: oneOf(['open', 'assigned', 'completed', 'failed']),
  result: orNull(str()),
  ledger_key: str(),
  created_at: time,
  completed_at: orNull(time),
});
export const TASKS_REPLY = list(TASK);

export const RECIPE = obj({
  id: str(),
  post_id: str(),
  recipe_file: str(),
  prompt_id: int(),
  flow_id: int(),
  persona: str(),
  action_summary: str(),
  fork_count: int(),
  chat_recipe_id: orNull(str({ description: 'the sharer’s saved chat recipe this file is (prompt_id of the file name), when there is one' })),
  chat_recipe_version: orNull(int()),
  created_at: time,
});
export const RECIPES_REPLY = list(RECIPE);
export const SHARED_RECIPE = obj({ post: POST_VIEW, recipe: RECIPE });
export const FORKED = obj({ forked: { const: true }, recipe_file: str(), fork_count: int() });

const PAGE_META = obj({ total: int(), limit: int(), offset: int(), has_more: bool() });
/** `{success: true, data: [...], meta}`, an offset-paginated list. */
export const pagedOf = (items: Record<string, unknown>) => obj({ success: { const: true }, data: items, meta: PAGE_META });
