import { deciderKit } from '../../../test/support/decider-kit';
import { type ApiUsageCommand, apiUsageDecider, type ApiUsageEvent, priceCents } from './api-usage';

const now = new Date('2026-11-22T10:00:00.000Z');

describe('API usage metering', () => {
  const { given } = deciderKit(apiUsageDecider, now);
  const meter: ApiUsageCommand = {
    kind: 'meter',
    usageId: 'chatcmpl-1',
    keyId: '0123456789abcdef',
    userId: 'u1',
    tier: 'free',
    model: 'agent-platform-1',
    promptTokens: 12,
    completionTokens: 30,
  };
  const metered: ApiUsageEvent = {
    type: 'ApiUsageMetered',
    data: {
      usage_id: 'chatcmpl-1',
      key_id: '0123456789abcdef',
      user_id: 'u1',
      tier: 'free',
      model: 'agent-platform-1',
      prompt_tokens: 12,
      completion_tokens: 30,
      amount_cents: 0,
      occurred_at: now.toISOString(),
    },
  };

  it('given nothing, when a free-tier call is metered, then ApiUsageMetered of 0 cents at now', () => given().when(meter).then(metered));

  it('given the call was metered, when metered again, then nothing (the usage id is the idempotency key)', () => given(metered).when(meter).thenNothing());

  it.each([
    ['fractional prompt tokens', { promptTokens: 1.5 }, 'prompt_tokens must be a non-negative integer'],
    ['negative completion tokens', { completionTokens: -1 }, 'completion_tokens must be a non-negative integer'],
    ['an unknown tier', { tier: 'gold' as never }, 'unknown API key tier gold'],
  ])('given nothing, when metering %s, then it is refused as invalid', (_, change, message) =>
    given()
      .when({ ...meter, ...change })
      .thenRefused('invalid', message));

  it('given the free tier, when a million tokens are priced, then they cost nothing ($0 per token, SPEC §8)', () => {
    expect(priceCents('free', 1_000_000)).toBe(0);
  });
});
