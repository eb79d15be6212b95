/**
 * Bodies of the core routes (SPEC §2.1, §2.2): POST /chat, /visual_agent,
 * /add_history. Missing or malformed fields are 400 with a message naming
 * the field; unknown fields are ignored.
 */
import { PROMPT_ID_PATTERN, TASK_SOURCES, type HistoryMessage, type TaskSource, USER_ID_PATTERN } from '../../aggregates/chat/chat.events';
import { type Body, flag, invalid, objectBody, trimmedPattern } from '../common/body-fields';
import { flagSchema, type JsonSchema, list, obj, oneOf, orNull, str } from '../common/openapi';
import type { ChatRequest, ModelConfig, VisualRequest } from './chat-pipeline';
import type { AppendHistory } from './chat.commands';

/** A prompt longer than this is refused: no model context takes it, and it would only cost. */
export const PROMPT_MAX_CHARS = 32_000;
const HISTORY_MAX_MESSAGES = 100;
const MODEL_NAME = /^[A-Za-z0-9_.:/@-]{1,128}$/;

function requiredString(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${field} is required (a non-empty string)`);
  return value;
}

/**
 * Whether the body must name the user: yes for the local guest, who has no
 * other identity; no for an authenticated caller, whose credential names it
 * (pipeline-caller.ts).
 */
export interface UserIdRule {
  userIdRequired: boolean;
}

/** The body's user_id: validated when present; absent is 400 only when the caller must name one. */
export function userIdOf(body: Body, { userIdRequired }: UserIdRule): string | undefined {
  if (!userIdRequired && (body.user_id === undefined || body.user_id === null)) return undefined;
  const userId = requiredString(body, 'user_id').trim();
  if (!USER_ID_PATTERN.test(userId)) throw invalid('user_id must be 1-128 letters, digits or _ . : @ -');
  return userId;
}

export function promptIdOf(body: Body): string {
  const promptId = requiredString(body, 'prompt_id').trim();
  if (!PROMPT_ID_PATTERN.test(promptId)) throw invalid('prompt_id may hold only letters, digits, _ and - (1-128 characters)');
  return promptId;
}

function promptOf(body: Body): string {
  const prompt = requiredString(body, 'prompt');
  if ([...prompt].length > PROMPT_MAX_CHARS) throw invalid(`prompt must be at most ${PROMPT_MAX_CHARS} characters`);
  return prompt;
}

function modelConfigOf(body: Body): ModelConfig | null {
  const value = body.model_config;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('model_config must be an object or null');
  const config: ModelConfig = {};
  for (const field of ['model', 'fast_model', 'expert_model'] as const) {
    const name = (value as Body)[field];
    if (name === undefined || name === null) continue;
    if (typeof name !== 'string' || !MODEL_NAME.test(name)) throw invalid(`model_config.${field} must be a model name`);
    config[field] = name;
  }
  return config;
}

/** A request whose acting user the route decides (ActingUsers): the body's user_id, if any. */
export type WithBodyUserId<T extends { userId: string }> = Omit<T, 'userId'> & { userId: string | undefined };

/** A /chat body: the pipeline's request without what the route adds (message id, origin). */
export type ChatBody = WithBodyUserId<Omit<ChatRequest, 'messageId' | 'origin'>>;

export function chatBody(raw: unknown, rule: UserIdRule): ChatBody {
  const body = objectBody(raw);
  const taskSource = body.task_source ?? 'own';
  if (typeof taskSource !== 'string' || !(TASK_SOURCES as readonly string[]).includes(taskSource)) {
    throw invalid(`task_source must be one of ${TASK_SOURCES.join(', ')}`);
  }
  return {
    userId: userIdOf(body, rule),
    promptId: promptIdOf(body),
    prompt: promptOf(body),
    createAgent: flag(body, 'create_agent') ?? false,
    taskSource: taskSource as TaskSource,
    modelConfig: modelConfigOf(body),
    autonomous: flag(body, 'autonomous') ?? false,
    speculative: flag(body, 'speculative') ?? false,
    casualConv: flag(body, 'casual_conv') ?? false,
  };
}

/** A /visual_agent body: the pipeline's request without the message id the route adds. */
export function visualBody(raw: unknown, rule: UserIdRule): WithBodyUserId<Omit<VisualRequest, 'messageId'>> {
  const body = objectBody(raw);
  const imageUrl = imageUrlOf(requiredString(body, 'image_url'), 'image_url');
  return { userId: userIdOf(body, rule), promptId: promptIdOf(body), prompt: promptOf(body), imageUrl };
}

/** An image for the vision path: an http(s) or data: URL (trimmed), as IMAGE_URL_SCHEMA says; 400 naming `field` otherwise. */
export function imageUrlOf(value: string, field: string): string {
  const imageUrl = value.trim();
  let url: URL;
  try {
    url = new URL(imageUrl);
  } catch {
    throw invalid(`${field} must be an http(s) or data: URL`);
  }
  if (!['http:', 'https:', 'data:'].includes(url.protocol)) throw invalid(`${field} must be an http(s) or data: URL`);
  return imageUrl;
}

export function historyBody(raw: unknown, rule: UserIdRule): WithBodyUserId<AppendHistory['payload']> {
  const body = objectBody(raw);
  const userId = userIdOf(body, rule);
  const promptId = promptIdOf(body);
  const history = body.history;
  if (!Array.isArray(history) || history.length === 0) throw invalid('history must be a non-empty array of {role, content}');
  if (history.length > HISTORY_MAX_MESSAGES) throw invalid(`history may hold at most ${HISTORY_MAX_MESSAGES} messages`);
  const messages = history.map((entry, i) => {
    const item = entry as Body | null;
    if (!item || typeof item !== 'object' || (item.role !== 'user' && item.role !== 'assistant')) {
      throw invalid(`history[${i}].role must be user or assistant`);
    }
    if (typeof item.content !== 'string') throw invalid(`history[${i}].content must be a string`);
    if ([...item.content].length > PROMPT_MAX_CHARS) throw invalid(`history[${i}].content must be at most ${PROMPT_MAX_CHARS} characters`);
    return { role: item.role, content: item.content } as HistoryMessage;
  });
  return { userId, promptId, messages };
}

// ---- The bodies above as JSON Schema, for the OpenAPI document; chat.requests.spec.ts proves the readers agree.

const userIdSchema = orNull(str({ pattern: trimmedPattern(USER_ID_PATTERN) }));
userIdSchema.description = 'the acting user: may be left out (or null) with a credential, else it must be the caller; required without one (the local guest)';
const promptIdSchema = str({ pattern: trimmedPattern(PROMPT_ID_PATTERN) });
const promptSchema = str({ pattern: '\\S', maxLength: PROMPT_MAX_CHARS });
const modelNameSchema = orNull(str({ pattern: MODEL_NAME.source }));

export const CHAT_BODY_SCHEMA: JsonSchema = obj(
  {
    user_id: userIdSchema,
    prompt_id: promptIdSchema,
    prompt: promptSchema,
    create_agent: flagSchema(),
    autonomous: flagSchema(),
    speculative: flagSchema(),
    casual_conv: flagSchema(),
    task_source: oneOf([...TASK_SOURCES, null], { description: 'default own' }),
    model_config: orNull(obj({ model: modelNameSchema, fast_model: modelNameSchema, expert_model: modelNameSchema }, ['model', 'fast_model', 'expert_model'])),
  },
  ['user_id', 'create_agent', 'autonomous', 'speculative', 'casual_conv', 'task_source', 'model_config'],
);

/** What imageUrlOf accepts. */
export const IMAGE_URL_SCHEMA: JsonSchema = str({ pattern: '^\\s*(?:[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+|[Dd][Aa][Tt][Aa]:)\\S*\\s*$', description: 'an http, https or data: URL' });

export const VISUAL_BODY_SCHEMA: JsonSchema = obj(
  {
    user_id: userIdSchema,
    prompt_id: promptIdSchema,
    prompt: promptSchema,
    image_url: IMAGE_URL_SCHEMA,
  },
  ['user_id'],
);

export const HISTORY_BODY_SCHEMA: JsonSchema = obj(
  {
    user_id: userIdSchema,
    prompt_id: promptIdSchema,
    history: list(obj({ role: oneOf(['user', 'assistant']), content: str({ maxLength: PROMPT_MAX_CHARS }) }), {
      minItems: 1,
      maxItems: HISTORY_MAX_MESSAGES,
    }),
  },
  ['user_id'],
);
