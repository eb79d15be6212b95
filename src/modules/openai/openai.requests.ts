/**
 * The body of POST /v1/chat/completions as OpenAI's clients send it, read by
 * hand: the fields the service acts on are checked, the others (tools,
 * response_format, seed, user, ...) are ignored. Each refusal is a 400
 * naming the field, which the /v1 error dialect carries as
 * `{error: {message, type: 'invalid_request_error'}}`.
 *
 * Content is a string or a list of parts: `text` parts in any message,
 * `image_url` parts in user messages. The LLM port carries a request's images
 * on its last user message, so every image of the conversation goes to the
 * model with that message (the vision path of /visual_agent).
 */
import type { LlmImage, LlmMessage } from '../../infrastructure/llm/llm.port';
import { type Body, invalid, objectBody } from '../common/body-fields';
import { type JsonSchema, list, num, obj, oneOf, str } from '../common/openapi';
import { IMAGE_URL_SCHEMA, imageUrlOf, PROMPT_MAX_CHARS } from '../chat/chat.requests';

export const MAX_MESSAGES = 100;
const MAX_PARTS = 16;
const MODEL_MAX_CHARS = 256;
export const MAX_TOKENS_LIMIT = 1_000_000;
const ROLES = ['system', 'developer', 'user', 'assistant'] as const;
type Role = (typeof ROLES)[number];

export interface ChatCompletionBody {
  model: string;
  messages: LlmMessage[];
  images: LlmImage[];
  stream: boolean;
  /** stream_options.include_usage: a last chunk with the usage, as OpenAI sends it */
  includeUsage: boolean;
  temperature?: number;
  maxTokens?: number;
}

const isObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);
const absent = (value: unknown): boolean => value === undefined || value === null;

function textOf(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(`${field} must be a string`);
  if ([...value].length > PROMPT_MAX_CHARS) throw invalid(`${field} must be at most ${PROMPT_MAX_CHARS} characters`);
  return value;
}

/** A message's content: its text (parts joined by new lines) and the images of a user message. */
function contentOf(value: unknown, role: Role, field: string): { text: string; images: LlmImage[] } {
  if (!Array.isArray(value)) return { text: textOf(value, field), images: [] };
  if (value.length > MAX_PARTS) throw invalid(`${field} may hold at most ${MAX_PARTS} parts`);
  const texts: string[] = [];
  const images: LlmImage[] = [];
  value.forEach((part, j) => {
    const at = `${field}[${j}]`;
    if (isObject(part) && part.type === 'text') {
      texts.push(textOf(part.text, `${at}.text`));
    } else if (isObject(part) && part.type === 'image_url' && role === 'user') {
      const image = part.image_url;
      if (!isObject(image) || typeof image.url !== 'string') throw invalid(`${at}.image_url.url must be an http(s) or data: URL`);
      images.push({ url: imageUrlOf(image.url, `${at}.image_url.url`) });
    } else {
      throw invalid(`${at}.type must be ${role === 'user' ? 'text or image_url' : 'text'}`);
    }
  });
  return { text: texts.join('\n'), images };
}

function messagesOf(value: unknown): { messages: LlmMessage[]; images: LlmImage[] } {
  if (!Array.isArray(value) || value.length === 0) throw invalid('messages must be a non-empty array of {role, content}');
  if (value.length > MAX_MESSAGES) throw invalid(`messages may hold at most ${MAX_MESSAGES} messages`);
  const images: LlmImage[] = [];
  const messages = value.map((entry, i): LlmMessage => {
    const role = isObject(entry) ? entry.role : undefined;
    if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
      throw invalid(`messages[${i}].role must be one of ${ROLES.join(', ')}`);
    }
    const content = contentOf((entry as Body).content, role as Role, `messages[${i}].content`);
    images.push(...content.images);
    // OpenAI's developer messages are its newer name for system messages
    return { role: role === 'developer' ? 'system' : (role as LlmMessage['role']), content: content.text };
  });
  return { messages, images };
}

function modelOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid('model is required (the model id GET /v1/models lists)');
  if (value.length > MODEL_MAX_CHARS) throw invalid(`model must be at most ${MODEL_MAX_CHARS} characters`);
  return value;
}

function booleanOf(value: unknown, field: string): boolean {
  if (absent(value)) return false;
  if (typeof value !== 'boolean') throw invalid(`${field} must be a boolean`);
  return value;
}

function temperatureOf(value: unknown): number | undefined {
  if (absent(value)) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 2) throw invalid('temperature must be a number from 0 to 2');
  return value;
}

function maxTokensOf(body: Body): number | undefined {
  for (const field of ['max_completion_tokens', 'max_tokens'] as const) {
    const value = body[field];
    if (absent(value)) continue;
    if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > MAX_TOKENS_LIMIT) {
      throw invalid(`${field} must be an integer from 1 to ${MAX_TOKENS_LIMIT}`);
    }
  }
  // the newer name wins when a client sends both
  return (body.max_completion_tokens ?? body.max_tokens ?? undefined) as number | undefined;
}

export function chatCompletionBody(raw: unknown): ChatCompletionBody {
  const body = objectBody(raw);
  const model = modelOf(body.model);
  const { messages, images } = messagesOf(body.messages);
  if (!absent(body.n) && body.n !== 1) throw invalid('n must be 1 (one choice per request)');
  const streamOptions = body.stream_options;
  if (!absent(streamOptions) && !isObject(streamOptions)) throw invalid('stream_options must be an object');
  const includeUsage = booleanOf(isObject(streamOptions) ? streamOptions.include_usage : undefined, 'stream_options.include_usage');
  const temperature = temperatureOf(body.temperature);
  const maxTokens = maxTokensOf(body);
  return {
    model,
    messages,
    images,
    stream: booleanOf(body.stream, 'stream'),
    includeUsage,
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
  };
}

// ---- The body above as JSON Schema, for the OpenAPI document; openai.requests.spec.ts proves the reader agrees.

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const text = str({ maxLength: PROMPT_MAX_CHARS });
const textPart = obj({ type: { const: 'text' }, text });
const imagePart = obj({ type: { const: 'image_url' }, image_url: obj({ url: IMAGE_URL_SCHEMA }, [], { description: '`detail` and other fields are ignored' }) });
const contentSchema = (parts: JsonSchema): JsonSchema => ({ anyOf: [text, list(parts, { maxItems: MAX_PARTS })] });
const maxTokens = nullable({ type: 'integer', minimum: 1, maximum: MAX_TOKENS_LIMIT });

export const CHAT_COMPLETION_BODY_SCHEMA: JsonSchema = obj(
  {
    model: str({ pattern: '\\S', maxLength: MODEL_MAX_CHARS, description: 'the model id of GET /v1/models (V1_MODEL_ID); any other is 404 model_not_found' }),
    messages: list(
      {
        anyOf: [
          obj({ role: oneOf(['system', 'developer', 'assistant']), content: contentSchema(textPart) }),
          obj({ role: { const: 'user' }, content: contentSchema({ anyOf: [textPart, imagePart] }) }),
        ],
      },
      { minItems: 1, maxItems: MAX_MESSAGES, description: 'image_url parts of any user message go to the model with the last user message' },
    ),
    stream: nullable({ type: 'boolean' }),
    stream_options: nullable(obj({ include_usage: nullable({ type: 'boolean' }) }, ['include_usage'])),
    temperature: nullable(num({ minimum: 0, maximum: 2 })),
    max_tokens: maxTokens,
    max_completion_tokens: maxTokens,
    n: nullable({ const: 1 }),
  },
  ['stream', 'stream_options', 'temperature', 'max_tokens', 'max_completion_tokens', 'n'],
);
