/** Reply schemas of the agent pipeline routes for the OpenAPI document (plain JSON, SPEC §2.1). */
import { int, num, obj, oneOf, str } from '../common/openapi';

export const CHAT_REPLY = obj({
  response: str(),
  prompt_id: str(),
  flow_id: str({ description: '`<prompt_id>:v<version>`, or `<prompt_id>:casual` / `:speculative`' }),
  actions_completed: int(),
  recipe_saved: { type: 'boolean' },
});
export const VISUAL_REPLY = obj({ response: str(), prompt_id: str(), source: oneOf(['model', 'offline']) });
export const HISTORY_RECEIPT = obj({ prompt_id: str(), appended: int(), messages: int() });

/** The pipeline's own refusals (docs/api.md, "Before anything runs"). */
export const GUARDRAIL_REFUSAL = ['the guardrail blocked the prompt (`error`: the reason), or hive work on a node that takes none', { category: str() }] as const;
export const BUDGET_REFUSAL = ['the daily budget would be exceeded', { estimate_usd: num(), remaining_usd: num() }] as const;
export const MODEL_REFUSED = 'the language model refused the request';
