/**
 * Errors a decider raises when a command is refused. The kind says what the
 * client did wrong; the HTTP layer maps kinds to status codes in one place
 * (src/modules/common/http-exception.filter.ts).
 */
export type DomainErrorKind =
  | 'invalid' // 400
  | 'unauthenticated' // 401
  | 'payment_required' // 402
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'gone' // 410
  | 'too_large' // 413
  | 'rate_limited' // 429
  | 'internal' // 500: the service failed where the contract names the failure (e.g. `draft_failed`)
  | 'unavailable'; // 503: the write or read cannot be served now; retrying later can succeed

export interface DomainErrorOptions {
  /** extra fields of the error body (e.g. the budget gate's estimate) */
  details?: Record<string, unknown>;
  /** seconds until a retry can succeed: the `Retry-After` header */
  retryAfterSec?: number;
  /** a stable machine-readable name of the refusal where clients tell refusals of one status apart (the OpenAI dialect's `code`, e.g. `insufficient_quota`) */
  code?: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly options: DomainErrorOptions = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** Compile-time exhaustiveness check for switches over discriminated unions. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
