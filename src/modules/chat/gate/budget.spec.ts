import { estimateTokens } from '../../../infrastructure/llm/llm.port';
import { checkBudget, estimateCost, estimatePromptCost } from './budget';

describe('budget gate', () => {
  describe('estimateCost', () => {
    it('is tokens × price per 1k tokens', () => {
      expect(estimateCost({ promptTokens: 1000, expectedCompletionTokens: 1000, pricePer1kTokensUsd: 0.002 })).toBe(0.004);
      expect(estimateCost({ promptTokens: 250, expectedCompletionTokens: 750, pricePer1kTokensUsd: 0.03 })).toBe(0.03);
    });

    it('has no float drift where floats would drift', () => {
      // in floats, 3 × 0.1 / 1000 is 0.00030000000000000003
      expect(estimateCost({ promptTokens: 1000, expectedCompletionTokens: 2000, pricePer1kTokensUsd: 0.1 })).toBe(0.3);
      expect(estimateCost({ promptTokens: 3, expectedCompletionTokens: 0, pricePer1kTokensUsd: 0.1 })).toBe(0.0003);
    });

    it('rounds up to the next micro-dollar, never down', () => {
      // 1 token at $0.0015 / 1k = $0.0000015 → 2 µ$
      expect(estimateCost({ promptTokens: 1, expectedCompletionTokens: 0, pricePer1kTokensUsd: 0.0015 })).toBe(0.000002);
      expect(estimateCost({ promptTokens: 1, expectedCompletionTokens: 0, pricePer1kTokensUsd: 0.000001 })).toBe(0.000001);
    });

    it('is 0 for a free model or no tokens', () => {
      expect(estimateCost({ promptTokens: 123456, expectedCompletionTokens: 999, pricePer1kTokensUsd: 0 })).toBe(0);
      expect(estimateCost({ promptTokens: 0, expectedCompletionTokens: 0, pricePer1kTokensUsd: 5 })).toBe(0);
    });

    it('is exact for large counts', () => {
      expect(estimateCost({ promptTokens: 2_000_000, expectedCompletionTokens: 0, pricePer1kTokensUsd: 0.06 })).toBe(120);
    });

    it.each([
      [{ promptTokens: -1, expectedCompletionTokens: 0, pricePer1kTokensUsd: 1 }],
      [{ promptTokens: 1.5, expectedCompletionTokens: 0, pricePer1kTokensUsd: 1 }],
      [{ promptTokens: 1, expectedCompletionTokens: Number.NaN, pricePer1kTokensUsd: 1 }],
      [{ promptTokens: 1, expectedCompletionTokens: 0, pricePer1kTokensUsd: -0.01 }],
      [{ promptTokens: 1, expectedCompletionTokens: 0, pricePer1kTokensUsd: Number.POSITIVE_INFINITY }],
    ])('rejects invalid input %j', (input) => {
      expect(() => estimateCost(input)).toThrow(RangeError);
    });
  });

  describe('estimatePromptCost', () => {
    it('approximates prompt tokens as ceil(chars / 4)', () => {
      expect(estimatePromptCost({ prompt: '', expectedCompletionTokens: 0, pricePer1kTokensUsd: 1 })).toEqual({
        promptTokens: 0,
        estimateUsd: 0,
      });
      expect(estimatePromptCost({ prompt: 'abcd', expectedCompletionTokens: 0, pricePer1kTokensUsd: 1 }).promptTokens).toBe(1);
      expect(estimatePromptCost({ prompt: 'abcde', expectedCompletionTokens: 0, pricePer1kTokensUsd: 1 }).promptTokens).toBe(2);
      expect(estimatePromptCost({ prompt: 'x'.repeat(4000), expectedCompletionTokens: 1000, pricePer1kTokensUsd: 0.01 })).toEqual({
        promptTokens: 1000,
        estimateUsd: 0.02,
      });
    });

    it('uses the LLM port’s estimateTokens', () => {
      const prompt = 'Summarise the attached report in three bullet points, please.';
      expect(estimatePromptCost({ prompt, expectedCompletionTokens: 0, pricePer1kTokensUsd: 1 }).promptTokens).toBe(
        estimateTokens(prompt),
      );
    });
  });

  describe('checkBudget', () => {
    it('allows an estimate within what is left', () => {
      expect(checkBudget({ estimateUsd: 0.5, spentTodayUsd: 0.4, dailyBudgetUsd: 1 })).toEqual({ allowed: true });
    });

    it('allows an estimate of exactly what is left, with no float drift', () => {
      // 0.3 - 0.1 is 0.19999999999999998 in floats, which would refuse 0.2
      expect(checkBudget({ estimateUsd: 0.2, spentTodayUsd: 0.1, dailyBudgetUsd: 0.3 })).toEqual({ allowed: true });
    });

    it('refuses one micro-dollar over, with the estimate, what is left and a message', () => {
      expect(checkBudget({ estimateUsd: 0.200001, spentTodayUsd: 0.1, dailyBudgetUsd: 0.3 })).toEqual({
        allowed: false,
        estimate_usd: 0.200001,
        remaining_usd: 0.2,
        message: 'This request is estimated to cost $0.200001, more than the $0.20 left of your daily budget of $0.30.',
      });
    });

    it('reports 0 left (not a negative amount) when already over budget', () => {
      const decision = checkBudget({ estimateUsd: 0.01, spentTodayUsd: 7.5, dailyBudgetUsd: 5 });
      expect(decision).toMatchObject({ allowed: false, estimate_usd: 0.01, remaining_usd: 0 });
      if (!decision.allowed) expect(decision.message).toContain('$0.00 left of your daily budget of $5.00');
    });

    it('always allows a zero estimate (free or offline model), even with the budget used up', () => {
      expect(checkBudget({ estimateUsd: 0, spentTodayUsd: 10, dailyBudgetUsd: 1 })).toEqual({ allowed: true });
      expect(checkBudget({ estimateUsd: 0, spentTodayUsd: 0, dailyBudgetUsd: 0 })).toEqual({ allowed: true });
    });

    it('refuses any paid request on a zero budget', () => {
      expect(checkBudget({ estimateUsd: 0.000001, spentTodayUsd: 0, dailyBudgetUsd: 0 })).toMatchObject({ allowed: false });
    });

    it('treats an infinite budget as no limit', () => {
      expect(checkBudget({ estimateUsd: 1e6, spentTodayUsd: 1e6, dailyBudgetUsd: Number.POSITIVE_INFINITY })).toEqual({
        allowed: true,
      });
    });

    it('works end to end with estimateCost', () => {
      const estimateUsd = estimateCost({ promptTokens: 1200, expectedCompletionTokens: 800, pricePer1kTokensUsd: 0.015 });
      expect(estimateUsd).toBe(0.03);
      expect(checkBudget({ estimateUsd, spentTodayUsd: 0.97, dailyBudgetUsd: 1 })).toEqual({ allowed: true });
      expect(checkBudget({ estimateUsd, spentTodayUsd: 0.970001, dailyBudgetUsd: 1 })).toMatchObject({ allowed: false });
    });

    it.each([
      [{ estimateUsd: -1, spentTodayUsd: 0, dailyBudgetUsd: 1 }],
      [{ estimateUsd: 1, spentTodayUsd: Number.NaN, dailyBudgetUsd: 1 }],
      [{ estimateUsd: 1, spentTodayUsd: 0, dailyBudgetUsd: -1 }],
    ])('rejects invalid input %j', (input) => {
      expect(() => checkBudget(input)).toThrow(RangeError);
    });
  });
});
