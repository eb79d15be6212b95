/** Reply schemas of /time_agent for the OpenAPI document (the `data` of `{success: true, data}`). */
import { int, obj, oneOf, orNull, str } from '../../common/openapi';

const time = str({ format: 'date-time' });

export const SCHEDULE_RECEIPT = obj({ schedule_id: str(), user_id: str(), prompt_id: str(), run_at: time, status: { const: 'scheduled' } });
export const SCHEDULE_VIEW = obj({
  schedule_id: str(),
  user_id: str(),
  prompt_id: str(),
  run_at: time,
  status: oneOf(['pending', 'running', 'completed', 'failed']),
  attempts: int(),
  scheduled_at: time,
  next_attempt_at: orNull(time),
  message_id: orNull(str()),
  response_excerpt: orNull(str()),
  completed_at: orNull(time),
  last_error: orNull(str()),
});
