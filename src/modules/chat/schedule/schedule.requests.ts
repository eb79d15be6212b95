/**
 * Validation of a `POST /time_agent` body (SPEC §2.2: user_id, prompt_id,
 * prompt, schedule_time), field by field with one clear message each. Unknown
 * fields are ignored, wrong types and missing fields are a 400.
 *
 * schedule_time is a strict ISO 8601 UTC timestamp:
 * `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or `+00:00`
 * (`+0000` too). A timestamp without a zone is read as UTC. Any other offset,
 * a date without a time, a space for `T`, or an impossible date (Feb 30,
 * 24:00) is refused. Fractions beyond milliseconds are cut. The time must lie
 * in the future (strictly after the server's now).
 */
import { invalid, objectBody, trimmedPattern } from '../../common/body-fields';
import { type JsonSchema, str } from '../../common/openapi';
import { CHAT_BODY_SCHEMA, PROMPT_MAX_CHARS, promptIdOf, type UserIdRule, userIdOf, type WithBodyUserId } from '../chat.requests';
import type { SchedulePrompt } from './schedule.commands';

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|\+00:00|\+0000)?$/;

/** The instant of a strict ISO 8601 UTC timestamp, or null when `value` is not one. */
export function parseUtcTimestamp(value: string): Date | null {
  const m = ISO_UTC.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis));
  // Date.UTC rolls Feb 30 over into March: such a date does not exist
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date;
}

const FIELDS = ['user_id', 'prompt_id', 'prompt', 'schedule_time'] as const;

/** The same field rules and messages as POST /chat for user_id, prompt_id and prompt (chat.requests.ts). */
export function parseTimeAgentRequest(raw: unknown, now: Date, rule: UserIdRule): WithBodyUserId<SchedulePrompt['payload']> {
  const body = objectBody(raw);
  const required = rule.userIdRequired ? FIELDS : FIELDS.filter((f) => f !== 'user_id');
  const missing = required.filter((f) => body[f] === undefined || body[f] === null);
  if (missing.length > 0) throw invalid(`missing required field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);

  const userId = userIdOf(body, rule);
  const promptId = promptIdOf(body);
  const prompt = body.prompt;
  if (typeof prompt !== 'string' || prompt.trim() === '') throw invalid('prompt is required (a non-empty string)');
  if ([...prompt].length > PROMPT_MAX_CHARS) throw invalid(`prompt must be at most ${PROMPT_MAX_CHARS} characters`);
  const scheduleTime = body.schedule_time;
  if (typeof scheduleTime !== 'string') throw invalid('schedule_time must be a string (an ISO 8601 UTC timestamp)');
  const runAt = parseUtcTimestamp(scheduleTime.trim());
  if (!runAt) throw invalid('schedule_time must be an ISO 8601 UTC timestamp, e.g. 2030-01-31T09:30:00Z');
  if (runAt.getTime() <= now.getTime()) throw invalid('schedule_time must be in the future');
  return { userId, promptId, prompt, runAt };
}

const chatFields = (CHAT_BODY_SCHEMA as { properties: Record<string, JsonSchema> }).properties;

/** The body above as JSON Schema, for the OpenAPI document; schedule.requests.spec.ts proves the reader agrees. */
export const TIME_AGENT_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    user_id: chatFields.user_id,
    prompt_id: chatFields.prompt_id,
    prompt: chatFields.prompt,
    schedule_time: str({
      pattern: trimmedPattern(ISO_UTC),
      description: 'ISO 8601 UTC (Z, +00:00 or no zone), a real date, strictly in the future',
      examples: ['2030-01-31T09:30:00Z'],
    }),
  },
  required: ['prompt_id', 'prompt', 'schedule_time'],
};
