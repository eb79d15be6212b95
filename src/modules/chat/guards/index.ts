/**
 * The checks a /chat prompt passes before it executes, in this order:
 * rate limit (per caller, before any work), guardrail (403), secret redaction
 * (the redacted prompt is the only one kept or sent on), budget gate (402).
 * See docs/chat-guards.md.
 */
export { checkGuardrail, type GuardrailCategory, type GuardrailDecision } from './guardrail';
export { redactSecrets, type Redaction, type RedactionResult } from './secret-redaction';
export { checkBudget, estimateCost, estimatePromptCost, type BudgetDecision } from './budget';
export { CHAT_RATE_LIMIT_COLLECTION, ChatRateLimiter, chatRateLimitKey, type RateLimitDecision } from './rate-limit';
