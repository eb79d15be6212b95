/**
 * The LLM port's settings (issue 7):
 *
 * - LLM_PROVIDER: `offline` (default) or `openai`. Setting LLM_BASE_URL alone
 *   implies `openai`: pointing the node at a server is the whole intent. An
 *   explicit LLM_PROVIDER=offline wins over a base URL.
 * - LLM_BASE_URL: the server's OpenAI-compatible root, with its /v1
 *   (http://127.0.0.1:11434/v1 for Ollama); default https://api.openai.com/v1.
 * - LLM_API_KEY: required only for the hosted default URL; local servers
 *   (llama.cpp, Ollama, vLLM) check none, so it may be empty for them.
 * - LLM_MODEL: required with `openai`. There is no model name every server
 *   accepts (Ollama and vLLM answer 404 to a name they do not serve), so a
 *   missing one stops the start with a message rather than failing every
 *   /chat call later.
 * - LLM_FAST_MODEL: optional, the fast model of speculative dispatch
 *   (default: LLM_MODEL).
 * - LLM_TIMEOUT_MS (default 60000), LLM_MAX_RETRIES (default 2).
 * - LLM_PRICE_PER_1K_TOKENS_USD: the budget gate's price, a number ≥ 0
 *   (default 0: local servers cost nothing per token).
 *
 * Each bad value is a ConfigError naming the variable.
 */
import { ConfigError } from './config-error';

export type LlmProvider = 'offline' | 'openai';

interface LlmCommonConfig {
  timeoutMs: number;
  maxRetries: number;
  pricePer1kTokensUsd: number;
}

export interface OfflineLlmConfig extends LlmCommonConfig {
  provider: 'offline';
}

export interface OpenAiLlmConfig extends LlmCommonConfig {
  provider: 'openai';
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** the fast model of speculative dispatch; `model` when LLM_FAST_MODEL is unset */
  fastModel: string;
}

export type LlmConfig = OfflineLlmConfig | OpenAiLlmConfig;

type Env = Record<string, string | undefined>;

export const DEFAULT_LLM_BASE_URL = 'https://api.openai.com/v1';
const PROVIDERS: readonly LlmProvider[] = ['offline', 'openai'];

export function raw(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(name, `expected an integer ${min}..${max}, got '${value}'`);
  }
  return Number(value);
}

function price(env: Env): number {
  const name = 'LLM_PRICE_PER_1K_TOKENS_USD';
  const value = raw(env, name);
  if (value === undefined) return 0;
  if (!/^\d+(?:\.\d+)?$/.test(value) || !Number.isFinite(Number(value))) {
    throw new ConfigError(name, `expected a number ≥ 0 (USD per 1000 tokens), got '${value}'`);
  }
  return Number(value);
}

function provider(env: Env): LlmProvider {
  const value = raw(env, 'LLM_PROVIDER')?.toLowerCase();
  if (value === undefined) return raw(env, 'LLM_BASE_URL') === undefined ? 'offline' : 'openai';
  if (!(PROVIDERS as readonly string[]).includes(value)) {
    throw new ConfigError('LLM_PROVIDER', `expected one of ${PROVIDERS.join(', ')}, got '${value}'`);
  }
  return value as LlmProvider;
}

/** An http(s) URL without query or fragment; the trailing slash is dropped so paths join cleanly. */
function baseUrl(env: Env): string | null {
  const value = raw(env, 'LLM_BASE_URL');
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('LLM_BASE_URL', `expected a URL such as http://127.0.0.1:11434/v1, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('LLM_BASE_URL', `expected an http or https URL, got '${value}'`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError('LLM_BASE_URL', `expected no query or fragment, got '${value}'`);
  }
  return value.replace(/\/+$/, '');
}

export function loadLlmConfig(env: Env): LlmConfig {
  const chosen = provider(env);
  const url = baseUrl(env); // validated even when offline: a typo should not wait for the switch
  const common: LlmCommonConfig = {
    timeoutMs: integer(env, 'LLM_TIMEOUT_MS', 60000, 100, 3600000),
    maxRetries: integer(env, 'LLM_MAX_RETRIES', 2, 0, 10),
    pricePer1kTokensUsd: price(env),
  };
  switch (chosen) {
    case 'offline':
      return { provider: 'offline', ...common };
    case 'openai': {
      const model = raw(env, 'LLM_MODEL');
      if (model === undefined) {
        throw new ConfigError('LLM_MODEL', 'required with LLM_PROVIDER=openai or LLM_BASE_URL: the model name the server serves');
      }
      const apiKey = raw(env, 'LLM_API_KEY') ?? null;
      if (url === null && apiKey === null) {
        throw new ConfigError('LLM_API_KEY', `required for the hosted default ${DEFAULT_LLM_BASE_URL}; set LLM_BASE_URL for a local server`);
      }
      return { provider: 'openai', ...common, baseUrl: url ?? DEFAULT_LLM_BASE_URL, apiKey, model, fastModel: raw(env, 'LLM_FAST_MODEL') ?? model };
    }
    default:
      return unreachable(chosen);
  }
}

function unreachable(value: never): never {
  throw new Error(`unexpected LLM provider ${String(value)}`);
}

/** Nest injection token of the LlmConfig. */
export const LLM_CONFIG = Symbol('LLM_CONFIG');
