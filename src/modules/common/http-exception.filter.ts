/**
 * Every error leaves the service here, as `{success: false, error}` with the
 * status its type maps to. Unknown errors become a 500 with a generic text and
 * are logged; nothing else is swallowed.
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DomainError, type DomainErrorKind } from '../../aggregates/shared/domain-error';
import { WrongExpectedRevisionError } from '../../infrastructure/event-store/event-store.port';
import { RawBodyError } from './raw-body-error';

const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  rate_limited: 429,
};

export interface ErrorBody {
  success: false;
  error: string;
}

/** Status and body for any thrown value. */
export function describeError(error: unknown): { status: number; body: ErrorBody | Record<string, unknown> } {
  if (error instanceof RawBodyError) return { status: error.status, body: error.body };
  if (error instanceof DomainError) {
    return { status: STATUS_BY_KIND[error.kind], body: { success: false, error: error.message } };
  }
  if (error instanceof HttpException) {
    return { status: error.getStatus(), body: { success: false, error: httpMessage(error) } };
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

@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const { status, body } = describeError(error);
    if (status >= 500) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply.status(status).send(body);
  }
}
