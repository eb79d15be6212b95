/**
 * One metered call of the OpenAI-compatible API (stream `apiUsage-<usageId>`,
 * one per answered /v1/chat/completions request): who called with which key
 * and tier, the tokens, and what the call earned at the tier's price, in
 * integer cents. The revenue read model counts it as `api` revenue (SPEC
 * §2.3 `api_revenue`): $0 on the free tier, whose calls are still counted.
 * The usage id is the idempotency key.
 *
 * Usage is its own event rather than a `RevenueRecorded` of 0 cents: it says
 * what happened (a metered call, with its tokens), and a revenue entry keeps
 * meaning money that came in (an admin's entry is never 0).
 */
import { type ApiKeyTier, CENTS_PER_MILLION_TOKENS } from '../accounts/api-key';
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';

export type ApiUsageEvent = {
  type: 'ApiUsageMetered';
  data: {
    usage_id: string;
    key_id: string;
    user_id: string;
    tier: ApiKeyTier;
    model: string;
    prompt_tokens: number;
    completion_tokens: number;
    amount_cents: number;
    occurred_at: string;
  };
};

export interface ApiUsageState {
  metered: boolean;
}

export type ApiUsageCommand = {
  kind: 'meter';
  usageId: string;
  keyId: string;
  userId: string;
  tier: ApiKeyTier;
  model: string;
  promptTokens: number;
  completionTokens: number;
};

export function apiUsageStreamId(usageId: string): string {
  return `apiUsage-${usageId}`;
}

/** The price of a call's tokens on its tier, rounded to the cent. */
export function priceCents(tier: ApiKeyTier, tokens: number): number {
  return Math.round((tokens * CENTS_PER_MILLION_TOKENS[tier]) / 1_000_000);
}

export const apiUsageDecider: Decider<ApiUsageState, ApiUsageCommand, ApiUsageEvent> = {
  initialState: { metered: false },
  evolve(_state, event) {
    switch (event.type) {
      case 'ApiUsageMetered':
        return { metered: true };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    if (state.metered) return [];
    if (!(command.tier in CENTS_PER_MILLION_TOKENS)) throw new DomainError('invalid', `unknown API key tier ${command.tier}`);
    for (const [field, value] of [['prompt_tokens', command.promptTokens], ['completion_tokens', command.completionTokens]] as const) {
      if (!Number.isSafeInteger(value) || value < 0) throw new DomainError('invalid', `${field} must be a non-negative integer`);
    }
    return [
      {
        type: 'ApiUsageMetered',
        data: {
          usage_id: command.usageId,
          key_id: command.keyId,
          user_id: command.userId,
          tier: command.tier,
          model: command.model,
          prompt_tokens: command.promptTokens,
          completion_tokens: command.completionTokens,
          amount_cents: priceCents(command.tier, command.promptTokens + command.completionTokens),
          occurred_at: now.toISOString(),
        },
      },
    ];
  },
};
