/**
 * Secret redaction (SPEC §1, issue 7 item 4): runs after the guardrail and
 * before anything stores the prompt or sends it to a model; the redacted text
 * is the only one that may be kept. Each secret becomes `[REDACTED:<kind>]`;
 * around it, what identifies without granting access stays (the "password="
 * label, a connection string's user and host).
 *
 * Tuned against false positives too: ordinary numbers, UUIDs, git SHAs, dates
 * and code that merely names a secret (`password=os.environ["PW"]`,
 * `Authorization: Bearer $TOKEN`) are left alone. The patterns and their
 * order are in secret-patterns.ts; the policy is in docs/chat-guards.md.
 */
import { SECRET_RULES } from './secret-patterns';

export interface Redaction {
  kind: string;
  count: number;
}

export interface RedactionResult {
  text: string;
  /** one entry per kind found, in rule order; empty when nothing was redacted */
  redactions: Redaction[];
}

export function redactSecrets(text: string): RedactionResult {
  const counts = new Map<string, number>();
  let redacted = text;
  for (const rule of SECRET_RULES) {
    if (rule.requires && !counts.has(rule.requires)) continue;
    redacted = redacted.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      const groups = rest[rest.length - 1] as Record<string, string | undefined>;
      const secret = groups.secret ?? match;
      if (rule.accept && !rule.accept(secret)) return match;
      counts.set(rule.kind, (counts.get(rule.kind) ?? 0) + 1);
      return `${groups.pre ?? ''}[REDACTED:${rule.kind}]${groups.post ?? ''}`;
    });
  }
  return { text: redacted, redactions: [...counts].map(([kind, count]) => ({ kind, count })) };
}
