/**
 * Replies of the OpenAI-compatible API, in OpenAI's shapes (what the official
 * clients parse): the model list, a chat completion, and the chunks of a
 * streamed one (server-sent events, ended by `data: [DONE]`).
 */
import { ApiResponse } from '@nestjs/swagger';
import { int, type JsonSchema, list, obj, oneOf, orNull, str } from '../common/openapi';

/** A refusal particular to a /v1 route, in OpenAI's error shape (the shared ones come from src/openapi/operation-facts.ts). */
export const OpenAiRefusal = (status: number, description: string): MethodDecorator =>
  ApiResponse({ status, description, content: { 'application/json': { schema: { $ref: '#/components/schemas/OpenAiError' } } } });

export const FINISH_REASONS = ['stop', 'length', 'content_filter'] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

export interface OpenAiModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

export interface ModelList {
  object: 'list';
  data: OpenAiModel[];
}

export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: null;
  choices: [{ index: 0; message: { role: 'assistant'; content: string; refusal: null }; finish_reason: FinishReason; logprobs: null }];
  usage: CompletionUsage;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint: null;
  choices: { index: 0; delta: { role?: 'assistant'; content?: string }; finish_reason: FinishReason | null; logprobs: null }[];
  usage?: CompletionUsage | null;
}

const usageSchema = obj({ prompt_tokens: int({ minimum: 0 }), completion_tokens: int({ minimum: 0 }), total_tokens: int({ minimum: 0 }) });

export const MODEL_LIST: JsonSchema = obj({
  object: { const: 'list' },
  data: list(obj({ id: str(), object: { const: 'model' }, created: int(), owned_by: str() }), { minItems: 1, maxItems: 1 }),
});

export const CHAT_COMPLETION: JsonSchema = obj({
  id: str({ pattern: '^chatcmpl-' }),
  object: { const: 'chat.completion' },
  created: int({ description: 'Unix time, seconds' }),
  model: str(),
  system_fingerprint: { type: 'null' },
  choices: list(
    obj({
      index: { const: 0 },
      message: obj({ role: { const: 'assistant' }, content: str(), refusal: { type: 'null' } }),
      finish_reason: oneOf(FINISH_REASONS),
      logprobs: { type: 'null' },
    }),
    { minItems: 1, maxItems: 1 },
  ),
  usage: usageSchema,
});

/** One `data:` line of a stream (the document shows the stream as text; this is its chunk). */
export const CHAT_COMPLETION_CHUNK: JsonSchema = obj(
  {
    id: str(),
    object: { const: 'chat.completion.chunk' },
    created: int(),
    model: str(),
    choices: list(obj({ index: { const: 0 }, delta: obj({ role: { const: 'assistant' }, content: str() }, ['role', 'content']), finish_reason: orNull(oneOf(FINISH_REASONS)) })),
    usage: orNull(usageSchema),
  },
  ['usage'],
);
