/**
 * The first step of the gate on POST /chat: a Nest guard, so that the limit
 * is taken before the body is read (an invalid request counts too) and after
 * the optional authentication (an authenticated caller is limited as a user).
 * Over the limit: 429 with Retry-After.
 */
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../../aggregates/shared/domain-error';
import type { AuthUser } from '../../accounts/auth/auth-user';
import { CHAT_RATE_LIMITER } from '../chat.tokens';
import { type ChatRateLimiter, chatRateLimitKey } from './rate-limit';

@Injectable()
export class ChatRateLimitGuard implements CanActivate {
  constructor(@Inject(CHAT_RATE_LIMITER) private readonly limiter: ChatRateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthUser }>();
    const decision = await this.limiter.take(chatRateLimitKey({ authenticatedUserId: request.user?.id ?? null, ip: request.ip }));
    if (!decision.allowed) {
      throw new DomainError('rate_limited', 'rate limit exceeded: too many /chat requests per minute', {
        retryAfterSec: decision.retryAfterSec,
      });
    }
    return true;
  }
}
