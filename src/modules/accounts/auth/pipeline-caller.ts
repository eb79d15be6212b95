/**
 * Who acts on the agent pipeline routes (/chat, /visual_agent, /add_history,
 * /time_agent, /goals): the identity model of docs/security.md.
 *
 * - A caller with a JWT or API key acts as that user. A body's `user_id`
 *   may be left out (it is taken from the credential); if given it must be
 *   the caller's id, else 403.
 * - A caller without a credential is accepted only when ANONYMOUS_CHAT is
 *   `local` (the default) and the request comes from a loopback address (the
 *   operator's own machine). It acts as the local guest: it names a
 *   conversation by `user_id`, but never a registered user's (401: sign in to
 *   act as that user). Everyone else without a credential: 401.
 * - What a route reads back (a goal, a scheduled prompt) is shown only to the
 *   user it belongs to or an admin, or to the local guest when it belongs to
 *   no registered user; to anyone else it does not exist (404).
 */
import { type CanActivate, createParamDecorator, type ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../../config/config';
import { invalid } from '../../common/body-fields';
import { AccountsQueries } from '../accounts.queries';
import type { AuthUser } from './auth-user';
import { AuthenticatedGuard, credentialOf, UNAUTHENTICATED } from './authenticated.guard';

export type PipelineCaller = { kind: 'user'; user: AuthUser } | { kind: 'local_guest'; ip: string };

type Request = FastifyRequest & { user?: AuthUser; pipelineCaller?: PipelineCaller };

/** 127.0.0.0/8, ::1 and their IPv4-mapped IPv6 forms. */
export function isLoopback(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return v4.startsWith('127.') || ip === '::1';
}

@Injectable()
export class PipelineCallerGuard implements CanActivate {
  constructor(
    private readonly authenticated: AuthenticatedGuard,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    if (credentialOf(request)) {
      await this.authenticated.canActivate(context);
      request.pipelineCaller = { kind: 'user', user: request.user! };
      return true;
    }
    if (this.config.security.anonymousPipeline === 'local' && isLoopback(request.ip)) {
      request.pipelineCaller = { kind: 'local_guest', ip: request.ip };
      return true;
    }
    throw new DomainError('unauthenticated', UNAUTHENTICATED);
  }
}

/** The route acts for a PipelineCaller (@Caller() in the handler). */
export const PipelineRoute = (): MethodDecorator & ClassDecorator => UseGuards(PipelineCallerGuard);

/** The caller that PipelineCallerGuard admitted. */
export const Caller = createParamDecorator(
  (_: unknown, context: ExecutionContext): PipelineCaller => context.switchToHttp().getRequest<Request>().pipelineCaller!,
);

/** The user a pipeline request acts for, and the actor its events record. */
export interface ActingUser {
  userId: string;
  actor: string;
}

@Injectable()
export class ActingUsers {
  constructor(private readonly accounts: AccountsQueries) {}

  /** The user `caller` acts for, given the body's `user_id` (undefined when left out). */
  async resolve(caller: PipelineCaller, bodyUserId: string | undefined): Promise<ActingUser> {
    if (caller.kind === 'user') {
      if (bodyUserId !== undefined && bodyUserId !== caller.user.id) {
        throw new DomainError('forbidden', 'user_id must be the authenticated user');
      }
      return { userId: caller.user.id, actor: caller.user.id };
    }
    if (bodyUserId === undefined) throw invalid('user_id is required (a non-empty string)');
    if (await this.accounts.userById(bodyUserId)) {
      throw new DomainError('unauthenticated', 'user_id names a registered user: sign in as that user to act for it');
    }
    return { userId: bodyUserId, actor: `guest:${caller.ip}` };
  }

  /** Whether `caller` may see what belongs to `ownerUserId`. */
  async mayRead(caller: PipelineCaller, ownerUserId: string): Promise<boolean> {
    if (caller.kind === 'user') return caller.user.id === ownerUserId || caller.user.role === 'admin';
    return !(await this.accounts.userById(ownerUserId));
  }
}
