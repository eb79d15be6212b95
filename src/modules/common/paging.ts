/**
 * `?limit=` and `?offset=` of an offset-paginated list (social-routes §0.1):
 * the effective limit is min(limit, cap), default per route ("d25≤100" is
 * `{ defaultLimit: 25, cap: 100 }`); offset defaults to 0. A value that is not
 * a whole number is a 400 naming the parameter (the original answered 500).
 */
import { DomainError } from '../../aggregates/shared/domain-error';
import type { JsonSchema } from './openapi';

export interface PageRule {
  defaultLimit: number;
  cap: number;
}

export interface Page {
  limit: number;
  offset: number;
}

const MAX_OFFSET = 1_000_000;

function wholeNumber(value: unknown, field: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value.trim())) throw new DomainError('invalid', `${field} must be a non-negative integer`);
  return Number(value.trim());
}

export function pageQuery(query: { limit?: unknown; offset?: unknown } | undefined, rule: PageRule): Page {
  const limit = wholeNumber(query?.limit, 'limit');
  const offset = wholeNumber(query?.offset, 'offset') ?? 0;
  if (offset > MAX_OFFSET) throw new DomainError('invalid', `offset must be at most ${MAX_OFFSET}`);
  return { limit: Math.max(1, Math.min(limit ?? rule.defaultLimit, rule.cap)), offset };
}

/** The query parameter schemas of a paginated route, for `@QueryParam`. */
export function pageQuerySchemas(rule: PageRule): { limit: JsonSchema; offset: JsonSchema } {
  return {
    limit: { type: 'integer', minimum: 0, default: rule.defaultLimit, description: `capped at ${rule.cap}` },
    offset: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 },
  };
}
