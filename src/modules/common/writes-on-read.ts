/**
 * `@WritesOnRead()` marks a GET route that creates what it reads on the
 * first call (the caller's referral code, their wallet), as the original
 * does. A node that must not write (a regional node replaying central's
 * log) sends such a GET to central like a write (federation/regional-writes.ts).
 * Carried in the Fastify route's config, so a hook before the route's guards
 * sees it.
 */
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

const WRITES_ON_READ = 'writesOnRead';

export const WritesOnRead = (): MethodDecorator => RouteConfig({ [WRITES_ON_READ]: true });

/** Whether the request's route is marked `@WritesOnRead()`. */
export const writesOnRead = (request: FastifyRequest): boolean => (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[WRITES_ON_READ] === true;
