/**
 * The CommandContext of an HTTP request: the acting user (or `anonymous`) and
 * a correlation id taken from `X-Correlation-Id` when it is well-formed, else
 * the request id (`correlationIdOf`, the same id the response echoes), so
 * every event of one request can be traced together.
 */
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { correlationIdOf } from '../../infrastructure/observability/request-ids';
import type { CommandContext } from './command-executor';

export function contextOf(request: FastifyRequest & { user?: { id: string } }): CommandContext {
  return { actor: request.user?.id ?? 'anonymous', correlationId: correlationIdOf(request), causationId: null };
}

export const RequestContext = createParamDecorator((_: unknown, context: ExecutionContext): CommandContext =>
  contextOf(context.switchToHttp().getRequest()),
);
