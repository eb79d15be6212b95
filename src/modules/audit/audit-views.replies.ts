/** Reply schemas of the audit views. */
import { bool, envelope, int, list, num, obj, oneOf, orNull, str } from '../common/openapi';

const time = str({ format: 'date-time' });
const open = { type: 'object', additionalProperties: true };

export const AUDIT_AGENTS = envelope(
  list(
    obj({
      id: str(),
      name: str(),
      owner_id: orNull(str()),
      type: oneOf(['local', 'cloud']),
      platform: str(),
      description: str(),
      xp: num(),
      generation: int(),
      specialization: orNull(str()),
      created_at: time,
    }),
  ),
);
const ENTRY = obj({ type: str(), timestamp: time, content: str(), metadata: open, source: oneOf(['memory', 'ledger', 'goals']) });
export const TIMELINE = envelope(list(ENTRY));
export const CONVERSATIONS = envelope(list(obj({ id: str(), role: { const: 'agent' }, content: str(), timestamp: time })));
export const THINKING = envelope(list(obj({ type: str(), content: str(), timestamp: time, metadata: open })));
const PROGRESS = obj({ completed: int(), total: int(), percent: int() });
export const DAEMON_GOALS = envelope(
  list(
    obj({
      goal_id: str(),
      user_id: str(),
      goal: str(),
      status: str(),
      origin_node: str(),
      created_at: time,
      updated_at: time,
      completed_at: orNull(time),
      failure_reason: orNull(str()),
      progress: PROGRESS,
    }),
  ),
);
export const COMPUTE_NODES = envelope(
  list(obj({ node_id: str(), tier: orNull(str()), is_local: bool(), joined_as_provider: bool(), last_seen: orNull(str()), compute_info: open, sources: list(str()) })),
);
export const COMPUTE_USAGE = envelope(
  list(obj({ api_key_id: str(), user_id: str(), request_count: int(), total_tokens_in: int(), total_tokens_out: int(), total_compute_ms: int(), total_cost: num({ description: 'dollars' }) })),
);
export const COMPUTE_ROUTING = envelope(
  obj({ node_tier: str(), llm_backend: oneOf(['offline', 'openai']), llm_url: str(), local_llm_available: bool(), routing_reasons: list(str()), connected_nodes: int() }, ['llm_url']),
);
