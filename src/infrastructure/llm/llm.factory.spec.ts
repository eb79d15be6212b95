import { loadLlmConfig } from '../../config/llm.config';
import { createLanguageModel } from './llm.factory';
import { OfflineLanguageModel } from './offline/offline-language-model';
import { OpenAiLanguageModel } from './openai/openai-language-model';

describe('createLanguageModel', () => {
  const toolbox = { attempt: () => [] };

  it('gives the offline engine by default', () => {
    const llm = createLanguageModel(loadLlmConfig({}), toolbox);
    expect(llm).toBeInstanceOf(OfflineLanguageModel);
    expect([llm.kind, llm.defaultModel]).toEqual(['offline', 'offline']);
  });

  it('gives the openai adapter with the configured model when a server is set', () => {
    const llm = createLanguageModel(loadLlmConfig({ LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'llama3.1' }), toolbox);
    expect(llm).toBeInstanceOf(OpenAiLanguageModel);
    expect([llm.kind, llm.defaultModel]).toEqual(['openai', 'llama3.1']);
  });
});
