/**
 * The offline engine of the LLM port as the app builds it: handed the agent's
 * built-in tools (src/modules/chat/tools), with the clock the date/time tool
 * reads (now by default).
 */
import type { LanguageModel } from '../../src/infrastructure/llm/llm.port';
import { OfflineLanguageModel } from '../../src/infrastructure/llm/offline/offline-language-model';
import { AgentTools } from '../../src/modules/chat/tools/agent-tools';

export function offlineLanguageModel(now: () => Date = () => new Date()): LanguageModel {
  return new OfflineLanguageModel(new AgentTools({ now }));
}
