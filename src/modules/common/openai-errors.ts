/**
 * The OpenAI dialect of the error body, spoken by every route under `/v1`
 * (the OpenAI-compatible API, docs/api.md): `{error: {message, type, param,
 * code}}` as OpenAI's own API sends it, so that the official clients raise
 * their usual error classes (`BadRequestError`, `AuthenticationError`,
 * `RateLimitError`, ...) with our message.
 *
 * The status of an error is decided once, by `describeError`
 * (http-exception.filter.ts); this module only words the body for /v1 and is
 * called from that filter, the one place errors leave the service.
 */

/** The path prefix of the OpenAI-compatible API (SPEC §9.1). */
export const OPENAI_API_PREFIX = '/v1';

/** Whether a request path belongs to the OpenAI-compatible API (its errors speak this dialect). */
export function speaksOpenAi(url: string | undefined): boolean {
  if (!url) return false;
  return url === OPENAI_API_PREFIX || url.startsWith(`${OPENAI_API_PREFIX}/`) || url.startsWith(`${OPENAI_API_PREFIX}?`);
}

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** OpenAI's `type` for each status it documents; anything else is a server error. */
function typeOf(status: number, code: string | null): string {
  if (code === 'insufficient_quota') return 'insufficient_quota';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 400 && status < 500) return 'invalid_request_error';
  return status === 503 ? 'service_unavailable' : 'server_error';
}

/** A code where OpenAI's clients look for one; null where OpenAI sends none. */
function defaultCode(status: number): string | null {
  switch (status) {
    case 401:
      return 'invalid_api_key';
    case 404:
      return 'unknown_url';
    case 429:
      return 'rate_limit_exceeded';
    default:
      return null;
  }
}

/**
 * Clients retry a 429 or 5xx after Retry-After when it is under a minute
 * (the `openai` package does); a refusal that lasts longer (a key's daily
 * quota: until the next UTC day) tells them not to with `x-should-retry: false`.
 */
const LONGEST_RETRY_SEC = 60;

export function openAiError(
  status: number,
  message: string,
  options: { code?: string | null; param?: string | null; headers?: Record<string, string> } = {},
): { body: OpenAiErrorBody; headers: Record<string, string> } {
  const code = options.code ?? defaultCode(status);
  const headers = { ...options.headers };
  const retryAfter = Number(headers['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter > LONGEST_RETRY_SEC) headers['x-should-retry'] = 'false';
  return { body: { error: { message, type: typeOf(status, code), param: options.param ?? null, code } }, headers };
}
