/**
 * Limits of the chat pipeline (SPEC §8, issue 7):
 * - CHAT_RATE_LIMIT_PER_MINUTE (default 30): /chat requests per minute per
 *   authenticated user, or per client IP for anonymous callers.
 * - CHAT_DAILY_BUDGET_USD (default 1): what one user's prompts may cost per
 *   UTC day at LLM_PRICE_PER_1K_TOKENS_USD; `0` refuses every priced call,
 *   `unlimited` turns the gate off. With a price of 0 (offline or a local
 *   server) the gate never refuses.
 * - CHAT_EXPECTED_COMPLETION_TOKENS (default 512): the completion the budget
 *   gate assumes before a model answered.
 */
import { ConfigError } from './config-error';

export interface ChatConfig {
  rateLimitPerMinute: number;
  dailyBudgetUsd: number;
  expectedCompletionTokens: number;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = env[name]?.trim();
  if (!value) return fallback;
  if (!/^\d+$/.test(value) || +value < min || +value > max) throw new ConfigError(name, `expected an integer ${min}..${max}, got '${value}'`);
  return Number(value);
}

function budget(env: Env): number {
  const value = env.CHAT_DAILY_BUDGET_USD?.trim();
  if (!value) return 1;
  if (value === 'unlimited') return Number.POSITIVE_INFINITY;
  if (!/^\d+(\.\d{1,6})?$/.test(value)) throw new ConfigError('CHAT_DAILY_BUDGET_USD', `expected a dollar amount ≥ 0 or 'unlimited', got '${value}'`);
  return Number(value);
}

export function loadChatConfig(env: Env): ChatConfig {
  return {
    rateLimitPerMinute: integer(env, 'CHAT_RATE_LIMIT_PER_MINUTE', 30, 1, 100000),
    dailyBudgetUsd: budget(env),
    expectedCompletionTokens: integer(env, 'CHAT_EXPECTED_COMPLETION_TOKENS', 512, 0, 1000000),
  };
}
