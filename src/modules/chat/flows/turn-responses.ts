/**
 * The response of a turn as it is recorded and answered: its usage, who
 * produced it (a model, or the offline engine: then the text ends with the
 * disclosure), and its cost at the configured price.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { TurnResponse } from '../../../aggregates/chat/conversation';
import { APP_CONFIG, type AppConfig } from '../../../config/config';
import { LLM, type LanguageModel, OFFLINE_DISCLOSURE } from '../../../infrastructure/llm/llm.port';
import type { RunUsage } from './action-runner';

export type ResponseFields = Omit<TurnResponse, 'cost_micro_usd' | 'source' | 'model' | 'prompt_tokens' | 'completion_tokens'>;

@Injectable()
export class TurnResponses {
  constructor(
    @Inject(LLM) private readonly llm: LanguageModel,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  respond(fields: ResponseFields, usage: RunUsage, model?: string): TurnResponse {
    return {
      ...fields,
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      response: this.disclose(fields.response),
      source: usage.usedModel ? 'model' : 'offline',
      model: usage.usedModel ? (model ?? this.llm.defaultModel) : 'offline',
      cost_micro_usd: this.costMicroUsd(usage.promptTokens, usage.completionTokens),
    };
  }

  private costMicroUsd(promptTokens: number, completionTokens: number): number {
    const micros = Math.round(this.config.llm.pricePer1kTokensUsd * 1_000_000);
    return Math.ceil(((promptTokens + completionTokens) * micros) / 1000);
  }

  private disclose(text: string): string {
    return this.llm.kind === 'offline' && !text.startsWith(OFFLINE_DISCLOSURE) ? `${text}\n${OFFLINE_DISCLOSURE}` : text;
  }
}
