/**
 * Field readers for routes whose contract prescribes exact error texts and
 * check order (the encounter and core routes), where a list of class-validator
 * decorators would not state the order. Each throws a 400 DomainError.
 */
import { DomainError } from '../../aggregates/shared/domain-error';

export type Body = Record<string, unknown>;

export const invalid = (message: string): DomainError => new DomainError('invalid', message);

/** A body that is not a JSON object is 400; no body reads as `{}`. */
export function objectBody(body: unknown): Body {
  if (body === null || body === undefined) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalid('request body must be a JSON object');
  return body as Body;
}

/** JSON booleans or exactly the strings "true"/"false"; anything else is 400. */
export function flag(body: Body, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalid(`${field} must be a boolean`);
}

/** The JSON Schema pattern of a value the readers trim before testing it against `pattern` (anchored ^...$). */
export function trimmedPattern(pattern: RegExp): string {
  return `^\\s*(?:${pattern.source.replace(/^\^/, '').replace(/\$$/, '')})\\s*$`;
}
