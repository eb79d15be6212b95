/**
 * The core routes (SPEC §4.1): POST /chat, /visual_agent, /add_history. Plain
 * JSON replies as SPEC §2.1 shows; errors are `{success: false, error}`.
 * Anonymous callers act for the body's user_id (the original's local-node
 * model); an authenticated caller may only act for itself. /chat is limited
 * to CHAT_RATE_LIMIT_PER_MINUTE per authenticated user, or per IP address
 * for anonymous callers (429 with Retry-After).
 */
import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { OptionallyAuthenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import type { CommandContext } from '../common/command-executor';
import { RequestContext } from '../common/request-context';
import type { ChatReply } from './chat-pipeline';
import { DefaultChatPipeline } from './chat-pipeline.service';
import { chatBody, historyBody, visualBody } from './chat-requests';
import { CHAT_RATE_LIMITER } from './chat.tokens';
import { type ChatRateLimiter, chatRateLimitKey } from './guards/rate-limit';

type Request = FastifyRequest & { user?: AuthUser };

function actingFor(request: Request, userId: string): void {
  if (request.user && request.user.id !== userId) {
    throw new DomainError('forbidden', 'user_id must be the authenticated user');
  }
}

@Controller()
@OptionallyAuthenticated()
export class ChatController {
  constructor(
    private readonly pipeline: DefaultChatPipeline,
    @Inject(CHAT_RATE_LIMITER) private readonly limiter: ChatRateLimiter,
  ) {}

  @Post('chat')
  @HttpCode(200)
  async chat(@Req() request: Request, @Body() raw: unknown, @RequestContext() context: CommandContext): Promise<ChatReply> {
    const decision = await this.limiter.take(chatRateLimitKey({ authenticatedUserId: request.user?.id ?? null, ip: request.ip }));
    if (!decision.allowed) {
      throw new DomainError('rate_limited', 'rate limit exceeded: too many /chat requests per minute', {
        retryAfterSec: decision.retryAfterSec,
      });
    }
    const body = chatBody(raw);
    actingFor(request, body.userId);
    return this.pipeline.run({ ...body, messageId: randomUUID(), origin: 'http' }, { ...context, actor: request.user?.id ?? body.userId });
  }

  @Post('visual_agent')
  @HttpCode(200)
  async visual(@Req() request: Request, @Body() raw: unknown, @RequestContext() context: CommandContext) {
    const body = visualBody(raw);
    actingFor(request, body.userId);
    return this.pipeline.visual(
      {
        ...body,
        createAgent: false,
        taskSource: 'own',
        modelConfig: null,
        autonomous: false,
        speculative: false,
        casualConv: true,
        messageId: randomUUID(),
        origin: 'http',
      },
      { ...context, actor: request.user?.id ?? body.userId },
    );
  }

  @Post('add_history')
  @HttpCode(200)
  async addHistory(@Req() request: Request, @Body() raw: unknown, @RequestContext() context: CommandContext) {
    const body = historyBody(raw);
    actingFor(request, body.userId);
    return this.pipeline.addHistory(body.userId, body.promptId, body.history, { ...context, actor: request.user?.id ?? body.userId });
  }
}
