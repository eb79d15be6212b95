/**
 * The OpenAI-compatible API under /v1 (SPEC §4.8, §9.1): GET /v1/models and
 * POST /v1/chat/completions, plain or streamed (`stream: true`: server-sent
 * events, `data: [DONE]` last), for any OpenAI client pointed at
 * `<base>/v1` with an API key (`Authorization: Bearer ak_...`).
 *
 * - Only API keys: each request counts against the key's daily quota (the
 *   free tier: 100 a UTC day, the 101st is 429 `insufficient_quota`), taken
 *   by the authentication guard; a JWT is refused (401).
 * - The `pipeline_ip` bucket is taken first (the guards run in the order the
 *   decorators below list them from the bottom up), so a request refused for
 *   its address's rate does not use up its key's quota.
 * - Errors are OpenAI-shaped (`{error: {message, type, param, code}}`): the
 *   one exception filter words every error under /v1 in that dialect
 *   (common/openai-errors.ts), also a failure in the middle of a stream,
 *   which arrives as one `data: {error}` event before the stream ends.
 */
import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiProduces } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyOnly, Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { errorReply } from '../common/http-exception.filter';
import { OPENAI_API_PREFIX } from '../common/openai-errors';
import { ReadBody, Reply } from '../common/openapi';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { RequestContext } from '../common/request-context';
import { SseResponse } from '../common/sse-response';
import { OpenAiCompletions } from './openai-completions.service';
import { CHAT_COMPLETION, MODEL_LIST, type ModelList, OpenAiRefusal } from './openai.replies';
import { CHAT_COMPLETION_BODY_SCHEMA, chatCompletionBody } from './openai.requests';

@Controller(OPENAI_API_PREFIX.slice(1))
@ApiKeyOnly()
export class OpenAiController {
  constructor(private readonly completions: OpenAiCompletions) {}

  @Get('models')
  @Reply(200, MODEL_LIST, 'the one model this API serves (V1_MODEL_ID)')
  @Authenticated()
  @RateLimited('pipeline_ip')
  models(): ModelList {
    return this.completions.models();
  }

  @Post('chat/completions')
  @HttpCode(200)
  @ReadBody(CHAT_COMPLETION_BODY_SCHEMA)
  @ApiProduces('application/json', 'text/event-stream')
  @Reply(200, CHAT_COMPLETION, 'the completion; with `stream: true`, server-sent events instead: `data: <chat.completion.chunk>` lines, then `data: [DONE]` (docs/api.md)')
  @OpenAiRefusal(404, 'the model is not the one this API serves (`model_not_found`)')
  @OpenAiRefusal(502, 'the upstream model server refused the request')
  @Authenticated()
  @RateLimited('pipeline_ip')
  async chatCompletions(@CurrentUser() caller: AuthUser, @Body() raw: unknown, @RequestContext() context: CommandContext, @Res() reply: FastifyReply): Promise<void> {
    const body = chatCompletionBody(raw);
    // the client went away before its answer was complete: the engine stops
    const abort = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    if (!body.stream) {
      void reply.status(200).send(await this.completions.complete(body, caller, context, abort.signal));
      return;
    }
    const { chunks } = await this.completions.stream(body, caller, context, abort.signal);
    const sse = new SseResponse(reply);
    sse.open();
    try {
      for await (const chunk of chunks) {
        if (!(await sse.write(`data: ${JSON.stringify(chunk)}\n\n`))) return;
      }
      await sse.write('data: [DONE]\n\n');
    } catch (error) {
      // the status line is sent: the error travels as an event, as OpenAI's own streams do
      await sse.write(`data: ${JSON.stringify(errorReply(error, reply.request.url).body)}\n\n`);
    } finally {
      abort.abort();
      sse.end();
    }
  }
}
