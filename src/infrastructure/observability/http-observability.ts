/**
 * What every HTTP request gets, installed on the Fastify instance once:
 *
 * - `X-Request-Id` and `X-Correlation-Id` on the response (set when the
 *   request arrives, so error replies carry them too);
 * - one access line at level `log` (pino's info) when it completes: method,
 *   route pattern, status, duration, user id, request id and correlation id;
 *   never a header, a body or a query string;
 * - the `http_request_duration_seconds` histogram;
 * - with tracing on, a server span `HTTP <method> <route>`, the parent of
 *   what the handler does (a `traceparent` from the caller is continued);
 * - `GET /metrics`, behind `Authorization: Bearer <METRICS_TOKEN>` when a
 *   token is configured.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Metrics } from './metrics';
import { correlationIdOf } from './request-ids';
import { context, contextFrom, type Span, SpanKind, SpanStatusCode, trace, tracer, tracingOn } from './tracing';

export interface HttpObservabilityOptions {
  logger: Logger;
  metrics: Metrics;
  accessLog: boolean;
  /** serve /metrics and record the HTTP histogram */
  metricsEnabled: boolean;
  /** bearer token /metrics asks for; null: open */
  metricsToken: string | null;
}

/** A route that matched nothing (404s) is one label value, whatever the path: bounded cardinality. */
export const UNMATCHED_ROUTE = '(unmatched)';

type ObservedRequest = FastifyRequest & { correlationId: string; span: Span | null; user?: { id?: string } };

export function installHttpObservability(fastify: FastifyInstance, options: HttpObservabilityOptions): void {
  const { logger, metrics } = options;
  const accessLog = options.accessLog && logger.isLevelEnabled('info');
  fastify.decorateRequest('correlationId', '');
  fastify.decorateRequest('span', null);

  fastify.addHook('onRequest', (request, reply, done) => {
    const observed = request as ObservedRequest;
    const correlationId = correlationIdOf(request);
    observed.correlationId = correlationId;
    void reply.header('x-request-id', request.id);
    void reply.header('x-correlation-id', correlationId);
    if (tracingOn()) {
      observed.span = tracer().startSpan(
        `HTTP ${request.method}`,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, correlation_id: correlationId, 'request.id': String(request.id) } },
        contextFrom(request.headers),
      );
    }
    done();
  });

  if (tracingOn()) {
    // the handler (guards, pipes, controller, command) runs inside the request's span
    fastify.addHook('preHandler', (request, _reply, done) => {
      const span = (request as ObservedRequest).span;
      if (span) context.with(trace.setSpan(context.active(), span), done);
      else done();
    });
  }

  fastify.addHook('onResponse', (request, reply, done) => {
    const observed = request as ObservedRequest;
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    if (options.metricsEnabled) metrics.observeHttp(request.method, route, status, ms / 1000);
    if (accessLog) {
      logger.info(
        {
          context: 'http',
          req_id: request.id,
          correlation_id: observed.correlationId,
          method: request.method,
          route,
          status,
          duration_ms: Math.round(ms * 1000) / 1000,
          user_id: observed.user?.id ?? null,
        },
        'request completed',
      );
    }
    const span = observed.span;
    if (span) {
      span.updateName(`HTTP ${request.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
      if (observed.user?.id) span.setAttribute('enduser.id', observed.user.id);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });

  if (options.metricsEnabled) {
    const expected = options.metricsToken === null ? null : Buffer.from(`Bearer ${options.metricsToken}`);
    fastify.get('/metrics', async (request: FastifyRequest, reply: FastifyReply) => {
      if (expected !== null && !sameSecret(request.headers.authorization, expected)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send({ success: false, error: 'a bearer token is required for /metrics' });
      }
      const text = await metrics.text();
      return reply.header('content-type', metrics.contentType).send(text);
    });
  }
}

function sameSecret(given: string | undefined, expected: Buffer): boolean {
  if (typeof given !== 'string') return false;
  const bytes = Buffer.from(given);
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}
