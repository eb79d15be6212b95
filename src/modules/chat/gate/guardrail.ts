/**
 * The guardrail filter (SPEC §1, issue 7 item 4): the first check on a /chat
 * prompt, before secret redaction and the budget gate. A blocked prompt → 403
 * with `reason`, and an event recording the category (never the prompt).
 *
 * A deterministic first line, not a classifier: word rules over a normalised
 * prompt (guardrail-normalize.ts), tuned to block only explicit operational
 * requests so that ordinary prompts pass (policy and examples:
 * docs/chat-guards.md; rules: guardrail-policy.ts). A model behind it keeps
 * its own safety behaviour.
 */
import { normalizeForGuardrail } from './guardrail-normalize';
import { GUARDRAIL_POLICY, type GuardRule, type GuardrailCategory } from './guardrail-policy';

export type { GuardrailCategory } from './guardrail-policy';

export type GuardrailDecision =
  | { allowed: true }
  | {
      allowed: false;
      category: GuardrailCategory;
      /** a client-facing sentence; never echoes the prompt */
      reason: string;
    };

/** Checks categories in policy order; the first that matches decides. */
export function checkGuardrail(prompt: string): GuardrailDecision {
  const views = normalizeForGuardrail(prompt);
  for (const { category, reason, rules } of GUARDRAIL_POLICY) {
    if (rules.some((rule) => views.some((text) => matches(rule, text)))) return { allowed: false, category, reason };
  }
  return { allowed: true };
}

function matches(rule: GuardRule, text: string): boolean {
  return rule.all.every((pattern) => pattern.test(text)) && !(rule.none ?? []).some((pattern) => pattern.test(text));
}
