/**
 * The core routes (SPEC §4.1): POST /chat, /visual_agent, /add_history. Plain
 * JSON replies as SPEC §2.1 shows; errors are `{success: false, error}`.
 * The acting user is the caller (pipeline-caller.ts): an authenticated user
 * acts only for itself, the local guest never for a registered user. /chat
 * takes from the `chat` bucket (CHAT_RATE_LIMIT_PER_MINUTE per user, or per
 * IP for the local guest), the others from `pipeline`; all from
 * `pipeline_ip` (429 with Retry-After).
 */
import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ActingUsers, Caller, type PipelineCaller, PipelineRoute } from '../accounts/auth/pipeline-caller';
import type { CommandContext } from '../common/command-executor';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { RequestContext } from '../common/request-context';
import type { ChatReply, VisualReply } from './chat-pipeline';
import { AppendHistory, AskAboutImage, type HistoryReceipt, RunPrompt } from './chat.commands';
import { CHAT_BODY_SCHEMA, chatBody, HISTORY_BODY_SCHEMA, historyBody, VISUAL_BODY_SCHEMA, visualBody } from './chat.requests';
import { ReadBody, Refusal, Reply } from '../common/openapi';
import { BUDGET_REFUSAL, CHAT_REPLY, GUARDRAIL_REFUSAL, HISTORY_RECEIPT, MODEL_REFUSED, VISUAL_REPLY } from './chat.replies';

@Controller()
@PipelineRoute()
export class ChatController {
  constructor(
    private readonly commands: CommandBus,
    private readonly acting: ActingUsers,
  ) {}

  @Post('chat')
  @HttpCode(200)
  @ReadBody(CHAT_BODY_SCHEMA)
  @Reply(200, CHAT_REPLY)
  @Refusal(403, ...GUARDRAIL_REFUSAL)
  @Refusal(402, ...BUDGET_REFUSAL)
  @Refusal(502, MODEL_REFUSED)
  @RateLimited('chat', 'pipeline_ip')
  async chat(@Caller() caller: PipelineCaller, @Body() raw: unknown, @RequestContext() context: CommandContext): Promise<ChatReply> {
    const body = chatBody(raw, { userIdRequired: caller.kind === 'local_guest' });
    const { userId, actor } = await this.acting.resolve(caller, body.userId);
    return this.commands.execute(new RunPrompt({ ...body, userId, messageId: randomUUID(), origin: 'http' }, { ...context, actor }));
  }

  @Post('visual_agent')
  @HttpCode(200)
  @ReadBody(VISUAL_BODY_SCHEMA)
  @Reply(200, VISUAL_REPLY)
  @Refusal(403, ...GUARDRAIL_REFUSAL)
  @Refusal(402, ...BUDGET_REFUSAL)
  @Refusal(502, MODEL_REFUSED)
  @RateLimited('pipeline', 'pipeline_ip')
  async visual(@Caller() caller: PipelineCaller, @Body() raw: unknown, @RequestContext() context: CommandContext): Promise<VisualReply> {
    const body = visualBody(raw, { userIdRequired: caller.kind === 'local_guest' });
    const { userId, actor } = await this.acting.resolve(caller, body.userId);
    return this.commands.execute(new AskAboutImage({ ...body, userId, messageId: randomUUID() }, { ...context, actor }));
  }

  @Post('add_history')
  @HttpCode(200)
  @ReadBody(HISTORY_BODY_SCHEMA)
  @Reply(200, HISTORY_RECEIPT)
  @RateLimited('pipeline', 'pipeline_ip')
  async addHistory(@Caller() caller: PipelineCaller, @Body() raw: unknown, @RequestContext() context: CommandContext): Promise<HistoryReceipt> {
    const body = historyBody(raw, { userIdRequired: caller.kind === 'local_guest' });
    const { userId, actor } = await this.acting.resolve(caller, body.userId);
    return this.commands.execute(new AppendHistory({ ...body, userId }, { ...context, actor }));
  }
}
