/**
 * The budget gate (SPEC §1, issue 7 item 4): estimated tokens × the model's
 * price against what is left of the user's daily budget. Over budget → the
 * caller answers 402 with the estimate.
 *
 * Money is computed in integer micro-dollars (1 USD = 1 000 000 µ$): summing
 * and comparing floats such as 0.1 + 0.2 drifts, integers below 2^53 do not.
 * Estimates round UP to the next micro-dollar, so the gate never lets a request
 * through on a rounding error. Pure functions: no clock, no I/O.
 */
import { estimateTokens } from '../../../infrastructure/llm/llm.port';

const MICROS_PER_USD = 1_000_000;

export interface CostInput {
  promptTokens: number;
  expectedCompletionTokens: number;
  /** one price for prompt and completion tokens; 0 = free or offline model */
  pricePer1kTokensUsd: number;
}

export interface BudgetInput {
  estimateUsd: number;
  spentTodayUsd: number;
  dailyBudgetUsd: number;
}

export type BudgetDecision =
  | { allowed: true }
  | { allowed: false; estimate_usd: number; remaining_usd: number; message: string };

/** estimateCost for a prompt text, its tokens estimated by the LLM port's estimateTokens (≈ chars / 4). */
export function estimatePromptCost(input: {
  prompt: string;
  expectedCompletionTokens: number;
  pricePer1kTokensUsd: number;
}): { promptTokens: number; estimateUsd: number } {
  const promptTokens = estimateTokens(input.prompt);
  return { promptTokens, estimateUsd: estimateCost({ ...input, promptTokens }) };
}

/** Estimated cost in USD of (prompt + expected completion) tokens, rounded up to a whole micro-dollar. */
export function estimateCost({ promptTokens, expectedCompletionTokens, pricePer1kTokensUsd }: CostInput): number {
  assertCount('promptTokens', promptTokens);
  assertCount('expectedCompletionTokens', expectedCompletionTokens);
  const pricePer1kMicros = toMicros('pricePer1kTokensUsd', pricePer1kTokensUsd);
  const tokens = BigInt(promptTokens + expectedCompletionTokens);
  // ceil(tokens × price / 1000) in exact integer arithmetic
  const micros = (tokens * BigInt(pricePer1kMicros) + 999n) / 1000n;
  return Number(micros) / MICROS_PER_USD;
}

/**
 * Allowed when the estimate fits in what is left of today's budget
 * (estimate ≤ budget − spent). A zero estimate (price 0) always passes, even
 * with the budget used up. A non-finite budget (Infinity) means "no limit".
 */
export function checkBudget({ estimateUsd, spentTodayUsd, dailyBudgetUsd }: BudgetInput): BudgetDecision {
  const estimate = toMicros('estimateUsd', estimateUsd);
  if (estimate === 0 || dailyBudgetUsd === Number.POSITIVE_INFINITY) return { allowed: true };
  const remaining = Math.max(0, toMicros('dailyBudgetUsd', dailyBudgetUsd) - toMicros('spentTodayUsd', spentTodayUsd));
  if (estimate <= remaining) return { allowed: true };
  return {
    allowed: false,
    estimate_usd: estimate / MICROS_PER_USD,
    remaining_usd: remaining / MICROS_PER_USD,
    message:
      `This request is estimated to cost ${formatUsd(estimate)}, more than the ${formatUsd(remaining)} ` +
      `left of your daily budget of ${formatUsd(toMicros('dailyBudgetUsd', dailyBudgetUsd))}.`,
  };
}

/** A non-negative USD amount as integer micro-dollars (rounded half up: the input was already a decimal). */
function toMicros(name: string, usd: number): number {
  if (!Number.isFinite(usd) || usd < 0) throw new RangeError(`${name} must be a finite number ≥ 0 (got ${usd})`);
  const micros = Math.round(usd * MICROS_PER_USD);
  if (!Number.isSafeInteger(micros)) throw new RangeError(`${name} is too large (${usd})`);
  return micros;
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be an integer ≥ 0 (got ${value})`);
}

/** $0.42, $0.000123, $12.50: at least cents, up to micro-dollars, no trailing zeros beyond cents. */
function formatUsd(micros: number): string {
  const dollars = Math.floor(micros / MICROS_PER_USD);
  const fraction = String(micros % MICROS_PER_USD).padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `$${dollars}.${fraction}`;
}
