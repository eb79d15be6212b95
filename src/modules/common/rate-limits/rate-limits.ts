/**
 * The named rate limits of the service (docs/security.md): which bucket
 * size each has, who it is counted for, and the 429 text. Routes take them
 * with @RateLimited(...names), in the order given; the first empty bucket
 * refuses with 429 and `Retry-After`.
 *
 * The social platform's buckets (social-routes §0.3): a route limited by
 * `post`, `comment`, `vote` or `search` takes from `global` first, and a route
 * limited "on global only" writes @RateLimited('global'). The account routes
 * (auth, register, recovery) do not take `global`: their per-address buckets
 * are sized for callers behind one address (docs/security.md), which a
 * 100-a-minute global bucket per address would undo.
 */
import { applyDecorators, type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../../config/config';
import type { RateBucketName } from '../../../config/security.config';
import { Clock } from '../../../infrastructure/clock';
import { READ_STORE, type ReadStore } from '../../../infrastructure/read-store/read-store.port';
import { type BucketSize, TokenBucketLimiter } from './token-bucket-limiter';

export type RateLimitName = RateBucketName | 'chat';

/** The buckets behind which `global` is checked first. */
const BEHIND_GLOBAL: readonly RateLimitName[] = ['post', 'comment', 'vote', 'search'];

/**
 * caller: the authenticated user, else the client IP (never a body field:
 * rotating it would dodge the limit); ip: the client IP whoever signed in;
 * everyone: one bucket for all callers together.
 */
type CountedFor = 'caller' | 'ip' | 'everyone';

interface RatePolicy {
  size: BucketSize;
  countedFor: CountedFor;
  message: string;
}

/** Who is asking: the authenticated user's id (null when anonymous) and the client IP. */
export interface RateCaller {
  userId: string | null;
  ip: string;
}

const exceededFor = (bucket: string): string => `Rate limit exceeded for ${bucket}. Try again later.`;

@Injectable()
export class RateLimits {
  private readonly limiter: TokenBucketLimiter;
  private readonly policies: Record<RateLimitName, RatePolicy>;

  constructor(@Inject(READ_STORE) store: ReadStore, clock: Clock, @Inject(APP_CONFIG) config: AppConfig) {
    this.limiter = new TokenBucketLimiter(store, () => clock.now());
    const buckets = config.security.rateLimits;
    this.policies = {
      chat: {
        size: { limit: config.chat.rateLimitPerMinute, periodSec: 60 },
        countedFor: 'caller',
        message: 'rate limit exceeded: too many /chat requests per minute',
      },
      global: { size: buckets.global, countedFor: 'caller', message: 'Rate limit exceeded. Try again later.' },
      post: { size: buckets.post, countedFor: 'caller', message: exceededFor('post') },
      comment: { size: buckets.comment, countedFor: 'caller', message: exceededFor('comment') },
      vote: { size: buckets.vote, countedFor: 'caller', message: exceededFor('vote') },
      search: { size: buckets.search, countedFor: 'caller', message: exceededFor('search') },
      backup: { size: buckets.backup, countedFor: 'caller', message: exceededFor('backup') },
      pipeline: { size: buckets.pipeline, countedFor: 'caller', message: exceededFor('pipeline') },
      pipeline_ip: { size: buckets.pipeline_ip, countedFor: 'ip', message: exceededFor('pipeline') },
      auth: { size: buckets.auth, countedFor: 'ip', message: exceededFor('auth') },
      register: { size: buckets.register, countedFor: 'ip', message: exceededFor('register') },
      recovery: { size: buckets.recovery, countedFor: 'everyone', message: exceededFor('recovery') },
      peers: { size: buckets.peers, countedFor: 'ip', message: 'Rate limit exceeded. Try again later.' },
    };
  }

  /** Takes one token from each named bucket in order; the first empty one throws 429 with Retry-After. */
  async take(names: readonly RateLimitName[], caller: RateCaller): Promise<void> {
    for (const name of names) {
      const policy = this.policies[name];
      const decision = await this.limiter.take(`${name}:${keyOf(policy.countedFor, caller)}`, policy.size);
      if (!decision.allowed) throw new DomainError('rate_limited', policy.message, { retryAfterSec: decision.retryAfterSec });
    }
  }
}

function keyOf(countedFor: CountedFor, caller: RateCaller): string {
  switch (countedFor) {
    case 'caller':
      return caller.userId ? `user:${caller.userId}` : `ip:${caller.ip}`;
    case 'ip':
      return `ip:${caller.ip}`;
    case 'everyone':
      return 'all';
    default: {
      const never: never = countedFor;
      return never;
    }
  }
}

const RATE_LIMITS = 'rate-limits:names';

/**
 * Runs after the route's authentication guard (class guards run first), so an
 * authenticated caller is counted as a user; before the handler, so an
 * invalid request counts too.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const names = this.reflector.get<RateLimitName[] | undefined>(RATE_LIMITS, context.getHandler()) ?? [];
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: { id: string } }>();
    await this.limits.take(names, { userId: request.user?.id ?? null, ip: request.ip });
    return true;
  }
}

/** The buckets a handler takes from (read by the OpenAPI document). */
export const rateLimitsOf = (handler: object): RateLimitName[] => Reflect.getMetadata(RATE_LIMITS, handler) ?? [];

/** The buckets a route takes from, in order: `global` first before a social content bucket, each once. */
export function effectiveBuckets(names: readonly RateLimitName[]): RateLimitName[] {
  const ordered = names.some((name) => BEHIND_GLOBAL.includes(name)) ? ['global' as const, ...names] : [...names];
  return [...new Set(ordered)];
}

/** Takes a token from each named bucket before the handler runs (method decorator). */
export const RateLimited = (...names: RateLimitName[]): MethodDecorator =>
  applyDecorators(SetMetadata(RATE_LIMITS, effectiveBuckets(names)), UseGuards(RateLimitGuard));
