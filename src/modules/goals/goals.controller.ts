/**
 * Goals over HTTP (issue 7, item 6; docs/goals-and-hive.md):
 * - POST /goals {user_id, goal, subtasks?, timeout_sec?, max_attempts?}:
 *   AcceptGoal plans the sub-tasks (goal-planner.ts), records GoalAccepted
 *   and answers 202: the work itself happens over the hive, after the request.
 * - GET /goals/:id: the goal's status from the `goals` read model.
 * Like /chat, the acting user is the caller (pipeline-caller.ts): an
 * authenticated user only for itself (403 otherwise), the local guest never
 * for a registered user. GET shows a goal only to its user (or an admin):
 * 404 to anyone else. Bodies use the `{success, data}` envelope, errors
 * `{success:false, error}`.
 */
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { ActingUsers, Caller, type PipelineCaller, PipelineRoute } from '../accounts/auth/pipeline-caller';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { RequestContext } from '../common/request-context';
import { AcceptGoal, type AcceptedGoal } from './goals.commands';
import { GoalsQueries, type GoalView } from './goals.queries';
import { CreateGoalDto, GOAL_ID_SCHEMA, goalIdParam, goalRequest } from './goals.requests';
import { EnvelopeReply, PathParam } from '../common/openapi';
import { ACCEPTED_GOAL, GOAL_VIEW } from './goals.replies';

@Controller('goals')
@PipelineRoute()
export class GoalsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: GoalsQueries,
    private readonly acting: ActingUsers,
  ) {}

  @Post()
  @HttpCode(202)
  @EnvelopeReply(202, ACCEPTED_GOAL, 'accepted: the sub-tasks run over the hive after the reply')
  @RateLimited('pipeline', 'pipeline_ip')
  async create(
    @Caller() caller: PipelineCaller,
    @Body() body: CreateGoalDto,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<AcceptedGoal>> {
    const { userId, actor } = await this.acting.resolve(caller, body.user_id);
    return ok(await this.commands.execute(new AcceptGoal({ ...goalRequest(body), userId }, { ...context, actor })));
  }

  @Get(':id')
  @EnvelopeReply(200, GOAL_VIEW)
  @PathParam('id', GOAL_ID_SCHEMA)
  async get(@Caller() caller: PipelineCaller, @Param('id') id: string): Promise<Envelope<GoalView>> {
    const view = await this.queries.view(goalIdParam(id));
    if (!view || !(await this.acting.mayRead(caller, view.user_id))) throw new DomainError('not_found', 'goal not found');
    return ok(view);
  }
}
