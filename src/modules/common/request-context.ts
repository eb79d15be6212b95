/**
 * The CommandContext of an HTTP request: the acting user (or `anonymous`) and
 * a correlation id taken from `X-Correlation-Id` when it is well-formed, else
 * the request id, so every event of one request can be traced together.
 */
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { CommandContext } from './command-executor';

const CORRELATION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export function contextOf(request: FastifyRequest & { user?: { id: string } }): CommandContext {
  const header = request.headers['x-correlation-id'];
  const correlationId = typeof header === 'string' && CORRELATION_ID.test(header) ? header : String(request.id);
  return { actor: request.user?.id ?? 'anonymous', correlationId, causationId: null };
}

export const RequestContext = createParamDecorator((_: unknown, context: ExecutionContext): CommandContext =>
  contextOf(context.switchToHttp().getRequest()),
);
