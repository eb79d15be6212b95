/**
 * The `openai` adapter of the LLM port: any OpenAI-compatible chat-completions
 * server (hosted OpenAI, or a local llama.cpp, Ollama or vLLM server) through
 * the official `openai` package.
 *
 * Version: openai@6.49 (the last 6.x). The 7.x line declares
 * `engines.node >= 22`, and this service runs on Node 20 (package.json
 * engines); 6.49 declares no engines, documents "Node.js 20 LTS or later",
 * has no runtime dependencies (its peers are all optional) and no install
 * scripts, so nothing is downloaded at install time.
 *
 * Only the plain `/v1/chat/completions` surface is used (no Responses API, no
 * `stream_options`, `max_tokens` rather than `max_completion_tokens`) because
 * that is what every local server implements.
 */
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import {
  LlmAbortedError,
  type LlmCompletion,
  type LlmDelta,
  type LlmFinishReason,
  type LanguageModel,
  type LlmRequest,
  LlmRequestError,
  LlmUnavailableError,
} from '../llm.port';
import { context, traceparentOf, tracingOn } from '../../observability/tracing';

export interface OpenAiLanguageModelOptions {
  /** e.g. http://127.0.0.1:8080/v1 (llama.cpp), http://127.0.0.1:11434/v1 (Ollama) */
  baseUrl: string;
  /** null or empty for local servers that check no key */
  apiKey: string | null;
  /** the default model; a request's `model` overrides it per call */
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * The SDK refuses to start without a key (it would fall back to OPENAI_API_KEY
 * from the environment); local servers ignore the Authorization header, so a
 * visible placeholder is sent instead of whatever the environment holds.
 */
const NO_KEY = 'no-key';

export class OpenAiLanguageModel implements LanguageModel {
  readonly kind = 'openai' as const;
  readonly defaultModel: string;
  private readonly client: OpenAI;

  constructor(options: OpenAiLanguageModelOptions) {
    this.defaultModel = options.model;
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey && options.apiKey.length > 0 ? options.apiKey : NO_KEY,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries,
    });
  }

  async complete(request: LlmRequest): Promise<LlmCompletion> {
    try {
      const response = await this.client.chat.completions.create(
        { ...this.params(request), stream: false },
        requestOptions(request),
      );
      const choice = response.choices[0];
      return {
        content: choice?.message.content ?? '',
        model: response.model || this.modelOf(request),
        source: 'model',
        usage: {
          promptTokens: response.usage?.prompt_tokens ?? 0,
          completionTokens: response.usage?.completion_tokens ?? 0,
        },
        finishReason: finishReason(choice?.finish_reason ?? null),
      };
    } catch (error) {
      throw mapError(error);
    }
  }

  /** The server's stream passed through; its finish reason, and its token counts when it sends them (llama.cpp, vLLM and others do). */
  async *stream(request: LlmRequest): AsyncIterable<LlmDelta> {
    let reason: string | null = null;
    let usage: LlmDelta['usage'];
    try {
      const chunks = await this.client.chat.completions.create(
        { ...this.params(request), stream: true },
        requestOptions(request),
      );
      for await (const chunk of chunks) {
        const choice = chunk.choices[0];
        if (choice?.finish_reason) reason = choice.finish_reason;
        if (chunk.usage) usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
        const content = choice?.delta?.content;
        if (content) yield { content, done: false };
      }
    } catch (error) {
      throw mapError(error);
    }
    yield { content: '', done: true, finishReason: finishReason(reason), ...(usage ? { usage } : {}) };
  }

  private modelOf(request: LlmRequest): string {
    return request.model && request.model.trim() !== '' ? request.model : this.defaultModel;
  }

  private params(request: LlmRequest): ChatCompletionCreateParamsBase {
    return {
      model: this.modelOf(request),
      messages: toMessages(request),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
    };
  }
}

/** The port's messages in the wire format; images become image_url parts of the last user message. */
function toMessages(request: LlmRequest): ChatCompletionMessageParam[] {
  const images = request.images ?? [];
  const lastUser = request.messages.map((m) => m.role).lastIndexOf('user');
  const messages: ChatCompletionMessageParam[] = request.messages.map((message, index) => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'assistant':
        return { role: 'assistant', content: message.content };
      case 'user': {
        if (index !== lastUser || images.length === 0) return { role: 'user', content: message.content };
        return { role: 'user', content: [{ type: 'text', text: message.content }, ...imageParts(request)] };
      }
      default:
        return unreachable(message.role);
    }
  });
  // images with no user message to carry them still reach the model
  if (lastUser === -1 && images.length > 0) messages.push({ role: 'user', content: imageParts(request) });
  return messages;
}

function imageParts(request: LlmRequest): ChatCompletionContentPart[] {
  return (request.images ?? []).map((image) => ({ type: 'image_url', image_url: { url: image.url } }));
}

function finishReason(reason: string | null): LlmFinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
    case 'content_filter':
      return reason;
    default:
      return 'other';
  }
}

/**
 * The SDK's errors in the port's terms. 408 and 429 are the server being busy,
 * not the request being wrong, so they count as unavailable like 5xx do.
 */
export function mapError(error: unknown): Error {
  if (error instanceof LlmUnavailableError || error instanceof LlmRequestError || error instanceof LlmAbortedError) {
    return error;
  }
  if (error instanceof APIUserAbortError) return new LlmAbortedError();
  if (error instanceof APIConnectionError) {
    return new LlmUnavailableError(`LLM server unreachable: ${error.message}`, null, { cause: error });
  }
  if (error instanceof APIError) {
    const status = error.status;
    const message = serverMessage(error);
    if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
      return new LlmRequestError(message, status, { cause: error });
    }
    return new LlmUnavailableError(`LLM server error ${status ?? ''}: ${message}`.trim(), status ?? null, {
      cause: error,
    });
  }
  if (isAbort(error)) return new LlmAbortedError();
  return new LlmUnavailableError(`LLM call failed: ${error instanceof Error ? error.message : String(error)}`, null, {
    cause: error,
  });
}

/** The server's own words: `{error: {message}}` (OpenAI, vLLM, llama.cpp) or the SDK's summary. */
function serverMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message !== '') return body.message;
  return error.message;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function unreachable(value: never): never {
  throw new Error(`unexpected role ${String(value)}`);
}

/**
 * Per-call options: the abort signal, and the headers that tie the call to
 * the request or task it serves (X-Correlation-Id; with tracing on, the
 * active span's traceparent).
 */
function requestOptions(request: LlmRequest): { signal?: AbortSignal; headers?: Record<string, string> } {
  const headers: Record<string, string> = {};
  if (request.correlationId) headers['x-correlation-id'] = request.correlationId;
  if (tracingOn()) {
    const traceparent = traceparentOf(context.active());
    if (traceparent) headers.traceparent = traceparent;
  }
  return { signal: request.signal, headers };
}
