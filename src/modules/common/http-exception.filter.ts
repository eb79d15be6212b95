/**
 * Every error leaves the service here, as `{success: false, error}` with the
 * status its type maps to. Unknown errors become a 500 with a generic text and
 * are logged; nothing else is swallowed. Under `/v1` (the OpenAI-compatible
 * API) the same status and message are worded in OpenAI's dialect
 * (`openai-errors.ts`), including Fastify's own refusals and unknown routes;
 * a route whose protocol fixes its error bodies (the A2A JSON-RPC endpoint)
 * registers its renderer (`renderErrorsOfRoute`).
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorKind } from '../../aggregates/shared/domain-error';
import { WrongExpectedRevisionError } from '../../infrastructure/event-store/event-store.port';
import { LlmRequestError, LlmUnavailableError } from '../../infrastructure/llm/llm.port';
import { JSON_ONLY } from './json-body';
import { openAiError, speaksOpenAi } from './openai-errors';
import { RawBodyError } from './raw-body-error';

const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

export interface ErrorBody {
  success: false;
  error: string;
}

/** Status, body and headers for any thrown value. */
export function describeError(error: unknown): {
  status: number;
  body: ErrorBody | Record<string, unknown>;
  headers?: Record<string, string>;
  /** the refusal's machine-readable name, when it has one (DomainError `code`) */
  code?: string;
} {
  if (error instanceof RawBodyError) return { status: error.status, body: error.body };
  if (error instanceof DomainError) {
    const { details, retryAfterSec, code } = error.options;
    return {
      code,
      status: STATUS_BY_KIND[error.kind],
      body: { ...details, success: false, error: error.message },
      headers: retryAfterSec === undefined ? undefined : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSec))) },
    };
  }
  if (error instanceof LlmUnavailableError) {
    return { status: 503, body: { success: false, error: `language model unavailable: ${error.message}` }, headers: { 'retry-after': '5' } };
  }
  if (error instanceof LlmRequestError) {
    return { status: 502, body: { success: false, error: `language model refused the request: ${error.message}` } };
  }
  if (error instanceof HttpException) {
    // 415 comes from Fastify: no parser for the content type, or a malformed Content-Type
    const status = error.getStatus();
    return { status, body: { success: false, error: status === 415 ? JSON_ONLY : httpMessage(error) } };
  }
  if (error instanceof WrongExpectedRevisionError) {
    return { status: 409, body: { success: false, error: 'concurrent update, please retry' } };
  }
  return { status: 500, body: { success: false, error: 'internal error' } };
}

function httpMessage(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}

const FRAMEWORK_ERROR_TEXTS: Record<string, string> = {
  FST_ERR_BAD_URL: 'the request URL is malformed',
  FST_ERR_MAX_PARAM_LENGTH: 'a path parameter of the URL is too long',
};

/**
 * Fastify's `frameworkErrors`: what Fastify refuses while routing, where no
 * Nest filter runs (a path whose percent-encoding does not decode, e.g.
 * `%ED%A0%80`: 400; a path parameter over 100 characters: 414), in the same
 * envelope.
 */
export function frameworkErrorReply(error: FastifyError, request: { url?: string }, reply: FastifyReply): void {
  const text = FRAMEWORK_ERROR_TEXTS[error.code];
  const status = text ? (error.statusCode ?? 400) : 500;
  void reply.status(status).send(speaksOpenAi(request.url) ? openAiError(status, text ?? 'internal error').body : { success: false, error: text ?? 'internal error' });
}

/** The body and headers of an error as the request's route speaks them: the envelope, or OpenAI's dialect under /v1. */
export function errorReply(error: unknown, url: string | undefined): { status: number; body: unknown; headers?: Record<string, string> } {
  const described = describeError(error);
  if (!speaksOpenAi(url)) return described;
  const message = typeof described.body.error === 'string' ? described.body.error : `HTTP ${described.status}`;
  const { body, headers } = openAiError(described.status, message, { code: described.code, headers: described.headers });
  return { status: described.status, body, headers };
}

type ErrorRenderer = (error: unknown, request: FastifyRequest) => { status: number; body: Record<string, unknown>; headers?: Record<string, string> };
const RENDERERS_BY_ROUTE = new Map<string, ErrorRenderer>();

/**
 * A route whose protocol fixes its error bodies (the A2A JSON-RPC endpoint)
 * renders its own errors, also those raised before its handler's filters
 * can run: a body Fastify could not parse reaches only this global filter.
 */
export function renderErrorsOfRoute(url: string, renderer: ErrorRenderer): void {
  RENDERERS_BY_ROUTE.set(url, renderer);
}

@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const renderer = RENDERERS_BY_ROUTE.get(request.routeOptions?.url ?? '');
    const { status, body, headers } = renderer ? renderer(error, request) : errorReply(error, request.url);
    if (status >= 500 && status !== 502 && status !== 503) {
      this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
    if (headers && Object.keys(headers).length > 0) void reply.headers(headers);
    void reply.status(status).send(body);
  }
}
