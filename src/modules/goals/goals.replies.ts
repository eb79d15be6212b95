/** Reply schemas of /goals for the OpenAPI document (the `data` of `{success: true, data}`). */
import { int, list, obj, oneOf, orNull, str } from '../common/openapi';

const time = str({ format: 'date-time' });
const PLANNED_BY = oneOf(['client', 'model', 'offline']);

export const ACCEPTED_GOAL = obj({
  goal_id: str(),
  status: { const: 'accepted' },
  subtasks: list(obj({ subtask_id: str(), description: str() })),
  planned_by: PLANNED_BY,
});
export const GOAL_VIEW = obj({
  goal_id: str(),
  user_id: str(),
  goal: str(),
  status: oneOf(['accepted', 'running', 'completed', 'failed']),
  planned_by: str(),
  origin_node: str(),
  timeout_sec: int(),
  max_attempts: int(),
  subtasks: list(
    obj({
      subtask_id: str(),
      description: str(),
      status: oneOf(['pending', 'dispatched', 'completed', 'failed']),
      attempts: int(),
      result: orNull(str()),
      node_id: orNull(str()),
      source: oneOf(['model', 'offline', null]),
      model: orNull(str()),
      last_error: orNull(str()),
    }),
  ),
  created_at: time,
  updated_at: time,
  completed_at: orNull(time),
  failed_at: orNull(time),
  failure_reason: orNull(str()),
});
