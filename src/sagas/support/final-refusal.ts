/**
 * Which failures of a saga command SagaRunner counts as handled: a refusal by
 * the domain (DomainError), which asking again would not change, except the
 * kinds that say a later try may succeed (`unavailable`, `rate_limited`):
 * those fail the batch, which is then retried, like any other error.
 */
import { DomainError, type DomainErrorKind } from '../../aggregates/shared/domain-error';

const WORTH_RETRYING: ReadonlySet<DomainErrorKind> = new Set(['unavailable', 'rate_limited']);

export function isFinalRefusal(error: unknown): boolean {
  return error instanceof DomainError && !WORTH_RETRYING.has(error.kind);
}
