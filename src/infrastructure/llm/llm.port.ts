/**
 * The LLM port (issue 7): the one way the agent pipeline talks to a language
 * model. Two adapters sit behind it: `openai` (any OpenAI-compatible server)
 * and `offline` (the default, a deterministic engine that needs no model).
 * Callers see `source` on every completion so that offline output is never
 * presented as a model's.
 *
 * The offline engine has no abilities of its own: the agent's built-in tools
 * (src/modules/chat/tools) are handed to it as an `OfflineToolbox` when it is
 * built, and it reports what they did with each step of a prompt and which
 * steps need a model.
 */

/** What every answer given without a language model says, so that it can never pass for a model's. */
export const OFFLINE_DISCLOSURE = 'No language model is configured on this node (offline engine).';

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
  /** the correlation id of the request or task the call serves: sent as X-Correlation-Id */
  correlationId?: string;
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

/**
 * One piece of a streamed answer; the last one has done: true (and usually no
 * content), with why the answer ended and, when the engine knows them, the
 * tokens it counted (an OpenAI-compatible server reports them in a stream
 * only if it chooses to; callers estimate them otherwise).
 */
export interface LlmDelta {
  content: string;
  done: boolean;
  finishReason?: LlmFinishReason;
  usage?: LlmUsage;
}

export interface LanguageModel {
  readonly kind: 'openai' | 'offline';
  readonly defaultModel: string;
  complete(request: LlmRequest): Promise<LlmCompletion>;
  stream(request: LlmRequest): AsyncIterable<LlmDelta>;
}

/** A step of a prompt as the agent planned it: its text and the built-in tool that can do it (null: none can). */
export interface OfflineStep {
  /** 0-based position in the prompt */
  index: number;
  text: string;
  tool: string | null;
}

/** What a built-in tool made of a step: its result, its error, or nothing (the step needs a model). */
export type StepOutcome = { kind: 'done'; result: string } | { kind: 'failed'; error: string } | { kind: 'needs-model' };

export interface StepAttempt {
  step: OfflineStep;
  outcome: StepOutcome;
}

/** The agent's tools as the offline engine uses them: a prompt's steps, in order, each tried with its tool. */
export interface OfflineToolbox {
  attempt(prompt: string): StepAttempt[];
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
