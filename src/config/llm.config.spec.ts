import { ConfigError } from './config-error';
import { DEFAULT_LLM_BASE_URL, loadLlmConfig } from './llm.config';

describe('loadLlmConfig', () => {
  it('given nothing, then the offline engine with its defaults', () => {
    expect(loadLlmConfig({})).toEqual({ provider: 'offline', timeoutMs: 60000, maxRetries: 2, pricePer1kTokensUsd: 0 });
  });

  it('given LLM_BASE_URL and LLM_MODEL alone, then openai against that server, with no key needed', () => {
    expect(loadLlmConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', LLM_MODEL: 'llama3.1' })).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: null,
      model: 'llama3.1',
      fastModel: 'llama3.1',
      timeoutMs: 60000,
      maxRetries: 2,
      pricePer1kTokensUsd: 0,
    });
  });

  it('given LLM_PROVIDER=openai with a key and no URL, then the hosted default URL', () => {
    const config = loadLlmConfig({ LLM_PROVIDER: 'OpenAI', LLM_API_KEY: ' sk-abc ', LLM_MODEL: 'gpt-4o-mini', LLM_FAST_MODEL: 'gpt-4o-mini-fast' });
    expect(config).toMatchObject({ provider: 'openai', baseUrl: DEFAULT_LLM_BASE_URL, apiKey: 'sk-abc', fastModel: 'gpt-4o-mini-fast' });
  });

  it('given LLM_PROVIDER=offline and a base URL, then offline wins (the URL is still checked)', () => {
    expect(loadLlmConfig({ LLM_PROVIDER: 'offline', LLM_BASE_URL: 'http://127.0.0.1:8080/v1' }).provider).toBe('offline');
    expect(() => loadLlmConfig({ LLM_PROVIDER: 'offline', LLM_BASE_URL: 'not a url' })).toThrow('LLM_BASE_URL');
  });

  it('reads the timeout, retries and price', () => {
    expect(loadLlmConfig({ LLM_TIMEOUT_MS: '1500', LLM_MAX_RETRIES: '0', LLM_PRICE_PER_1K_TOKENS_USD: '0.002' })).toEqual({
      provider: 'offline',
      timeoutMs: 1500,
      maxRetries: 0,
      pricePer1kTokensUsd: 0.002,
    });
  });

  it('treats blank values as unset', () => {
    expect(loadLlmConfig({ LLM_PROVIDER: ' ', LLM_BASE_URL: '', LLM_TIMEOUT_MS: '  ' })).toEqual(loadLlmConfig({}));
  });

  it.each<[string, Record<string, string>]>([
    ['LLM_PROVIDER', { LLM_PROVIDER: 'anthropic' }],
    ['LLM_BASE_URL', { LLM_BASE_URL: 'localhost:8080', LLM_MODEL: 'm' }],
    ['LLM_BASE_URL', { LLM_BASE_URL: 'ftp://host/v1', LLM_MODEL: 'm' }],
    ['LLM_BASE_URL', { LLM_BASE_URL: 'http://host/v1?key=1', LLM_MODEL: 'm' }],
    ['LLM_MODEL', { LLM_BASE_URL: 'http://127.0.0.1:8080/v1' }],
    ['LLM_MODEL', { LLM_PROVIDER: 'openai', LLM_API_KEY: 'sk' }],
    ['LLM_API_KEY', { LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-4o' }],
    ['LLM_TIMEOUT_MS', { LLM_TIMEOUT_MS: '1m' }],
    ['LLM_TIMEOUT_MS', { LLM_TIMEOUT_MS: '10' }],
    ['LLM_MAX_RETRIES', { LLM_MAX_RETRIES: '-1' }],
    ['LLM_MAX_RETRIES', { LLM_MAX_RETRIES: '11' }],
    ['LLM_PRICE_PER_1K_TOKENS_USD', { LLM_PRICE_PER_1K_TOKENS_USD: '-0.5' }],
    ['LLM_PRICE_PER_1K_TOKENS_USD', { LLM_PRICE_PER_1K_TOKENS_USD: 'free' }],
  ])('given a bad %s, then a ConfigError names it', (name, env) => {
    expect(() => loadLlmConfig(env)).toThrow(ConfigError);
    expect(() => loadLlmConfig(env)).toThrow(expect.objectContaining({ variable: name }));
  });
});
