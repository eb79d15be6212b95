/**
 * Chat completions of the OpenAI-compatible API: the request goes to the LLM
 * port (the offline engine by default, any OpenAI-compatible server by
 * configuration; images through its vision input), and each answered call is
 * metered on its API key's tier (`MeterApiUsage`: api revenue, $0 on the free
 * tier). The key's daily quota was taken by the authentication guard before
 * the call (api-key-authenticator.ts), the one count of requests.
 *
 * Token counts are the engine's when it reports them, else estimated with the
 * port's `estimateTokens` (a stream from a server that sends no usage).
 * Streaming passes the port's deltas through as they come: an upstream
 * server's stream chunk by chunk, the offline engine's answer (computed at
 * once) a line at a time.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import {
  estimateTokens,
  type LanguageModel,
  LLM,
  type LlmDelta,
  type LlmFinishReason,
  type LlmRequest,
  type LlmUsage,
} from '../../infrastructure/llm/llm.port';
import type { AuthUser } from '../accounts/auth/auth-user';
import type { CommandContext } from '../common/command-executor';
import { MeterApiUsage } from '../compute/compute.commands';
import type { ChatCompletionBody } from './openai.requests';
import type { ChatCompletion, ChatCompletionChunk, CompletionUsage, FinishReason, ModelList } from './openai.replies';

/** What a stream is: the first delta already pulled (so that a failing start is an ordinary error reply), then the chunks. */
export interface CompletionStream {
  chunks: AsyncIterable<ChatCompletionChunk>;
}

@Injectable()
export class OpenAiCompletions {
  private readonly modelId: string;
  /** when this node started serving the model: the model's `created` */
  private readonly since: number;

  constructor(
    @Inject(LLM) private readonly llm: LanguageModel,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.modelId = config.v1.modelId;
    this.since = Math.floor(clock.now().getTime() / 1000);
  }

  models(): ModelList {
    return { object: 'list', data: [{ id: this.modelId, object: 'model', created: this.since, owned_by: 'agent-platform' }] };
  }

  async complete(body: ChatCompletionBody, caller: AuthUser, context: CommandContext, signal: AbortSignal): Promise<ChatCompletion> {
    this.checkModel(body.model);
    const request = this.requestOf(body, context, signal);
    const answer = await this.llm.complete(request);
    const id = completionId();
    const usage = await this.meter(id, caller, context, answer.usage);
    return {
      id,
      object: 'chat.completion',
      created: this.created(),
      model: this.modelId,
      system_fingerprint: null,
      choices: [{ index: 0, message: { role: 'assistant', content: answer.content, refusal: null }, finish_reason: finishReason(answer.finishReason), logprobs: null }],
      usage,
    };
  }

  /**
   * Starts the answer and pulls its first delta before anything is sent, so
   * that an unknown model or an engine that cannot answer is an ordinary
   * error reply; the chunks then follow as the engine produces them, and
   * the call is metered once the answer is complete.
   */
  async stream(body: ChatCompletionBody, caller: AuthUser, context: CommandContext, signal: AbortSignal): Promise<CompletionStream> {
    this.checkModel(body.model);
    const request = this.requestOf(body, context, signal);
    const deltas = this.llm.stream(request)[Symbol.asyncIterator]();
    const first = await deltas.next();
    const id = completionId();
    const created = this.created();
    const chunk = (delta: ChatCompletionChunk['choices'][0]['delta'], reason: FinishReason | null): ChatCompletionChunk => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: this.modelId,
      system_fingerprint: null,
      choices: [{ index: 0, delta, finish_reason: reason, logprobs: null }],
      ...(body.includeUsage ? { usage: null } : {}),
    });
    const meter = (usage: LlmUsage) => this.meter(id, caller, context, usage);
    async function* chunks(): AsyncIterable<ChatCompletionChunk> {
      yield chunk({ role: 'assistant', content: '' }, null);
      let content = '';
      let last: LlmDelta | undefined;
      for (let next = first; !next.done; next = await deltas.next()) {
        if (next.value.done) {
          last = next.value;
          break;
        }
        content += next.value.content;
        if (next.value.content) yield chunk({ content: next.value.content }, null);
      }
      yield chunk({}, finishReason(last?.finishReason ?? 'stop'));
      const usage = await meter(last?.usage ?? estimatedUsage(request, content));
      if (body.includeUsage) yield { ...chunk({}, null), choices: [], usage };
    }
    return { chunks: chunks() };
  }

  private checkModel(model: string): void {
    if (model !== this.modelId) {
      throw new DomainError('not_found', `The model '${model}' does not exist: this API serves '${this.modelId}' (GET /v1/models)`, { code: 'model_not_found' });
    }
  }

  private requestOf(body: ChatCompletionBody, context: CommandContext, signal: AbortSignal): LlmRequest {
    return {
      messages: body.messages,
      ...(body.images.length > 0 ? { images: body.images } : {}),
      ...(body.temperature === undefined ? {} : { temperature: body.temperature }),
      ...(body.maxTokens === undefined ? {} : { maxTokens: body.maxTokens }),
      signal,
      correlationId: context.correlationId,
    };
  }

  private async meter(id: string, caller: AuthUser, context: CommandContext, usage: LlmUsage): Promise<CompletionUsage> {
    const { apiKeyId, apiKeyTier } = caller;
    if (apiKeyId === null || apiKeyTier === null) throw new Error('a /v1 call without an API key reached metering');
    await this.commands.execute(
      new MeterApiUsage(
        { usageId: id, keyId: apiKeyId, userId: caller.id, tier: apiKeyTier, model: this.modelId, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens },
        context,
      ),
    );
    return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens };
  }

  private created(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }
}

function completionId(): string {
  return `chatcmpl-${randomUUID().replace(/-/g, '')}`;
}

/** The port's 'other' (a reason OpenAI's clients do not know) reads as a plain stop. */
function finishReason(reason: LlmFinishReason): FinishReason {
  return reason === 'other' ? 'stop' : reason;
}

function estimatedUsage(request: LlmRequest, completion: string): LlmUsage {
  return { promptTokens: estimateTokens(request.messages.map((m) => m.content).join('\n')), completionTokens: estimateTokens(completion) };
}
