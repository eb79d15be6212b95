/**
 * `/time_agent` (SPEC §2.2, §4.1; issue 7 item 5): durable scheduled prompts.
 *
 * - `POST /time_agent` {user_id, prompt_id, prompt, schedule_time} → 202
 *   `{success: true, data: {schedule_id, user_id, prompt_id, run_at, status: 'scheduled'}}`.
 *   400 `{success: false, error}` for a missing or malformed field or a
 *   schedule_time that is not in the future; 403 with the reason when the
 *   guardrail blocks the prompt.
 * - `GET /time_agent/:schedule_id` → 200 `{success: true, data: <status view>}`, 404 unknown
 *   or not the caller's.
 *
 * The acting user is the caller (pipeline-caller.ts): a JWT or API key, or
 * the local guest; POST takes from the `pipeline` and `pipeline_ip` buckets.
 *
 * SPEC does not show the response bodies; the shapes are documented in
 * docs/chat-scheduler.md. When the prompt is due, the scheduler
 * (src/sagas/scheduled-prompts.scheduler.ts) runs it through the chat
 * pipeline with message id = schedule_id; the answer lands in the
 * conversation (user_id, prompt_id).
 */
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { Clock } from '../../../infrastructure/clock';
import { ActingUsers, Caller, type PipelineCaller, PipelineRoute } from '../../accounts/auth/pipeline-caller';
import type { CommandContext } from '../../common/command-executor';
import { type Envelope, ok } from '../../common/envelope';
import { RateLimited } from '../../common/rate-limits/rate-limits';
import { RequestContext } from '../../common/request-context';
import { SchedulePrompt, type ScheduleReceipt } from './schedule.commands';
import { ScheduleQueries, type ScheduleView } from './schedule.queries';
import { parseTimeAgentRequest, TIME_AGENT_BODY_SCHEMA } from './schedule.requests';
import { EnvelopeReply, ReadBody, Refusal } from '../../common/openapi';
import { GUARDRAIL_REFUSAL } from '../chat.replies';
import { SCHEDULE_RECEIPT, SCHEDULE_VIEW } from './schedule.replies';

@Controller('time_agent')
@PipelineRoute()
export class TimeAgentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ScheduleQueries,
    private readonly acting: ActingUsers,
    private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(202)
  @ReadBody(TIME_AGENT_BODY_SCHEMA)
  @EnvelopeReply(202, SCHEDULE_RECEIPT, 'scheduled; it runs once when due')
  @Refusal(403, GUARDRAIL_REFUSAL[0], GUARDRAIL_REFUSAL[1])
  @RateLimited('pipeline', 'pipeline_ip')
  async schedule(
    @Caller() caller: PipelineCaller,
    @Body() raw: unknown,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<ScheduleReceipt>> {
    const body = parseTimeAgentRequest(raw, this.clock.now(), { userIdRequired: caller.kind === 'local_guest' });
    const { userId, actor } = await this.acting.resolve(caller, body.userId);
    return ok(await this.commands.execute(new SchedulePrompt({ ...body, userId }, { ...context, actor })));
  }

  @Get(':schedule_id')
  @EnvelopeReply(200, SCHEDULE_VIEW)
  async status(@Caller() caller: PipelineCaller, @Param('schedule_id') scheduleId: string): Promise<Envelope<ScheduleView>> {
    const view = await this.queries.byId(scheduleId);
    if (!view || !(await this.acting.mayRead(caller, view.user_id))) throw new DomainError('not_found', 'scheduled prompt not found');
    return ok(view);
  }
}
