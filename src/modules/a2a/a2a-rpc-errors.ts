/**
 * Every error of the JSON-RPC endpoint leaves here as a JSON-RPC error
 * object `{jsonrpc: '2.0', id, error: {code, message}}`, with the HTTP
 * status the facts fix (unknown method 400, unknown agent 404, unknown task
 * 200) or the one the service gives that refusal elsewhere (401 without a
 * credential, 429 with Retry-After, 503 while a store is down).
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describeError, renderErrorsOfRoute } from '../common/http-exception.filter';
import { idOf, JsonRpcError, RPC, rpcError } from './a2a-wire';

/** The JSON-RPC code of a refusal the service describes with an HTTP status. */
function codeOf(status: number): number {
  if (status === 400 || status === 413 || status === 415) return RPC.invalidRequest;
  if (status >= 500) return RPC.internal;
  return RPC.serverError;
}

/** Status, JSON-RPC error and headers of any thrown value. */
export function describeRpcError(error: unknown): { status: number; code: number; message: string; headers?: Record<string, string> } {
  if (error instanceof JsonRpcError) return { status: error.httpStatus, code: error.code, message: error.message };
  const { status, body, headers } = describeError(error);
  // Fastify's JSON parser: the body is not JSON
  if (status === 400 && isParseError(error)) return { status: 400, code: RPC.parseError, message: 'Parse error' };
  const message = typeof body.error === 'string' ? body.error : 'error';
  return { status, code: codeOf(status), message, headers };
}

/** Fastify's JSON parser refused the text (Nest hands it over as a 400 whose text Fastify wrote). */
function isParseError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) return true;
  return error instanceof Error && /is not valid JSON|Body cannot be empty/.test(error.message);
}

/** The route's errors as JSON-RPC errors: what its filter sends, and what the global filter sends for it (an unparsable body). */
export function renderRpcError(error: unknown, request: FastifyRequest): { status: number; body: Record<string, unknown>; headers?: Record<string, string> } {
  const { status, code, message, headers } = describeRpcError(error);
  return { status, body: rpcError(idOf(request.body), { code, message }), headers };
}

export const A2A_RPC_ROUTE = '/a2a/:agent_id/jsonrpc';
renderErrorsOfRoute(A2A_RPC_ROUTE, renderRpcError);

@Catch()
export class JsonRpcExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('A2A');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    if (reply.sent) return;
    const { status, body, headers } = renderRpcError(error, http.getRequest<FastifyRequest>());
    if (status >= 500 && status !== 503) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    if (headers) void reply.headers(headers);
    void reply.status(status).send(body);
  }
}
