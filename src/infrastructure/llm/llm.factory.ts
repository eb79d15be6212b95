/**
 * The LanguageModel for a configuration: the one place that knows both
 * adapters, so nothing else imports an adapter directly. The offline engine
 * works with the agent's tools, which the caller hands in. The OpenAI client
 * library is loaded only when configured (as the port adapters are:
 * ports.factory.ts).
 */
import type { LlmConfig } from '../../config/llm.config';
import type { LanguageModel, OfflineToolbox } from './llm.port';
import { OfflineLanguageModel } from './offline/offline-language-model';

export function createLanguageModel(config: LlmConfig, toolbox: OfflineToolbox): LanguageModel {
  switch (config.provider) {
    case 'offline':
      return new OfflineLanguageModel(toolbox);
    case 'openai': {
      const { OpenAiLanguageModel } = require('./openai/openai-language-model') as typeof import('./openai/openai-language-model');
      return new OpenAiLanguageModel({
        baseUrl: config.baseUrl,
        apiKey: config.apiKey,
        model: config.model,
        timeoutMs: config.timeoutMs,
        maxRetries: config.maxRetries,
      });
    }
    default:
      return unreachable(config);
  }
}

function unreachable(value: never): never {
  throw new Error(`unexpected LLM provider ${JSON.stringify(value)}`);
}
