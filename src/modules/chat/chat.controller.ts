/**
 * The core routes (SPEC §4.1): POST /chat, /visual_agent, /add_history. Plain
 * JSON replies as SPEC §2.1 shows; errors are `{success: false, error}`.
 * Anonymous callers act for the body's user_id (the original's local-node
 * model); an authenticated caller may only act for itself. /chat is limited
 * to CHAT_RATE_LIMIT_PER_MINUTE per authenticated user, or per IP address
 * for anonymous callers (429 with Retry-After), before its body is read.
 */
import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { OptionallyAuthenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import type { CommandContext } from '../common/command-executor';
import { RequestContext } from '../common/request-context';
import type { ChatReply, VisualReply } from './chat-pipeline';
import { AppendHistory, AskAboutImage, type HistoryReceipt, RunPrompt } from './chat.commands';
import { chatBody, historyBody, visualBody } from './chat.requests';
import { ChatRateLimitGuard } from './gate/rate-limit.guard';

type Request = FastifyRequest & { user?: AuthUser };

/** The context of a command for `userId`: refused when an authenticated caller acts for someone else. */
function actingFor(request: Request, userId: string, context: CommandContext): CommandContext {
  if (request.user && request.user.id !== userId) {
    throw new DomainError('forbidden', 'user_id must be the authenticated user');
  }
  return { ...context, actor: request.user?.id ?? userId };
}

@Controller()
@OptionallyAuthenticated()
export class ChatController {
  constructor(private readonly commands: CommandBus) {}

  @Post('chat')
  @HttpCode(200)
  @UseGuards(ChatRateLimitGuard)
  async chat(@Req() request: Request, @Body() raw: unknown, @RequestContext() context: CommandContext): Promise<ChatReply> {
    const body = chatBody(raw);
    return this.commands.execute(new RunPrompt({ ...body, messageId: randomUUID(), origin: 'http' }, actingFor(request, body.userId, context)));
  }

  @Post('visual_agent')
  @HttpCode(200)
  async visual(@Req() request: Request, @Body() raw: unknown, @RequestContext() context: CommandContext): Promise<VisualReply> {
    const body = visualBody(raw);
    return this.commands.execute(new AskAboutImage({ ...body, messageId: randomUUID() }, actingFor(request, body.userId, context)));
  }

  @Post('add_history')
  @HttpCode(200)
  async addHistory(@Req() request: Request, @Body() raw: unknown, @RequestContext() context: CommandContext): Promise<HistoryReceipt> {
    const body = historyBody(raw);
    return this.commands.execute(new AppendHistory(body, actingFor(request, body.userId, context)));
  }
}
