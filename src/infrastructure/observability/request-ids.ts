/**
 * The ids that tie one request's log line, response, events and outbound
 * calls together:
 *
 * - the request id: a caller's `X-Request-Id` when it is safe to echo and log
 *   (1..128 of letters, digits, `_ . : -`), else a new UUID;
 * - the correlation id: a well-formed `X-Correlation-Id`, else the request id.
 *   It goes into the events' metadata, the response, the LLM calls and the
 *   bus messages relayed from those events.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const SAFE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export function isSafeId(value: unknown): value is string {
  return typeof value === 'string' && SAFE_ID.test(value);
}

export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return isSafeId(given) ? given : randomUUID();
}

export function correlationIdOf(request: { id: unknown; headers: IncomingHttpHeaders }): string {
  const given = request.headers['x-correlation-id'];
  return isSafeId(given) ? given : String(request.id);
}

/** Bus message header names (Kafka headers) of the correlation id and W3C trace context. */
export const CORRELATION_HEADER = 'correlation-id';
export const TRACEPARENT_HEADER = 'traceparent';
