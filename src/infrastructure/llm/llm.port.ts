/**
 * The LLM port (issue 7): the one way the agent pipeline talks to a language
 * model. Two adapters sit behind it: `openai` (any OpenAI-compatible server)
 * and `offline` (the default, a deterministic engine that needs no model).
 * Callers see `source` on every completion so that offline output is never
 * presented as a model's.
 */

/** Nest injection token of the LanguageModel. */
export const LLM = Symbol('LLM');

export type LlmRole = 'system' | 'user' | 'assistant';

export interface LlmMessage {
  role: LlmRole;
  content: string;
}

export interface LlmImage {
  /** http(s) URL or a data: URL; sent as an image_url content part */
  url: string;
}

export interface LlmRequest {
  messages: LlmMessage[];
  /** per-call model override (a request's model_config); the adapter's default otherwise */
  model?: string;
  temperature?: number;
  maxTokens?: number;
  /** vision input, attached to the last user message */
  images?: LlmImage[];
  /** cancels the call (client went away, saga timed out) */
  signal?: AbortSignal;
}

export type LlmFinishReason = 'stop' | 'length' | 'content_filter' | 'other';

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface LlmCompletion {
  content: string;
  /** the model that answered ('offline' for the offline engine) */
  model: string;
  /** 'offline' marks output that no language model produced */
  source: 'model' | 'offline';
  usage: LlmUsage;
  finishReason: LlmFinishReason;
}

/** One piece of a streamed answer; the last one has done: true (and usually no content). */
export interface LlmDelta {
  content: string;
  done: boolean;
}

export interface LanguageModel {
  readonly kind: 'openai' | 'offline';
  readonly defaultModel: string;
  complete(request: LlmRequest): Promise<LlmCompletion>;
  stream(request: LlmRequest): AsyncIterable<LlmDelta>;
}

/**
 * The model server could not be reached or did not answer in time (connection
 * refused, timeout, 5xx, 429). Worth a retry later; the HTTP layer maps it to 503.
 */
export class LlmUnavailableError extends Error {
  constructor(message: string, readonly status: number | null = null, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LlmUnavailableError';
  }
}

/**
 * The model server refused the request (a 4xx other than 408/429: bad model
 * name, bad API key, context too long). `message` is the server's own.
 */
export class LlmRequestError extends Error {
  constructor(message: string, readonly status: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LlmRequestError';
  }
}

/** The caller's AbortSignal fired; nobody is waiting for an answer. */
export class LlmAbortedError extends Error {
  constructor(message = 'LLM call aborted') {
    super(message);
    this.name = 'LlmAbortedError';
  }
}

/**
 * A rough token count for the budget gate: about four characters a token for
 * English text, which is what OpenAI documents as the rule of thumb. It runs
 * before any model is asked, so it must not depend on a tokenizer.
 */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.max(1, Math.ceil(text.length / 4));
}
