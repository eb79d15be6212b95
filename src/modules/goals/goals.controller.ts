/**
 * Goals over HTTP (issue 7, item 6; docs/goals-and-hive.md):
 * - POST /goals {user_id, goal, subtasks?, timeout_sec?, max_attempts?}:
 *   AcceptGoal plans the sub-tasks (goal-planner.ts), records GoalAccepted
 *   and answers 202: the work itself happens over the hive, after the request.
 * - GET /goals/:id: the goal's status from the `goals` read model.
 * Like /chat: anonymous callers act for the body's user_id, an authenticated
 * caller only for itself (403 otherwise). GET is open to whoever holds the
 * goal id (a random UUID). Bodies use the `{success, data}` envelope, errors
 * `{success:false, error}`.
 */
import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { OptionallyAuthenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { RequestContext } from '../common/request-context';
import { AcceptGoal, type AcceptedGoal } from './goals.commands';
import { GoalsQueries, type GoalView } from './goals.queries';
import { CreateGoalDto, goalIdParam, goalRequest } from './goals.requests';

@Controller('goals')
@OptionallyAuthenticated()
export class GoalsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: GoalsQueries,
  ) {}

  @Post()
  @HttpCode(202)
  async create(
    @Req() request: FastifyRequest & { user?: AuthUser },
    @Body() body: CreateGoalDto,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<AcceptedGoal>> {
    if (request.user && request.user.id !== body.user_id) throw new DomainError('forbidden', 'user_id must be the authenticated user');
    const accepted = await this.commands.execute(new AcceptGoal(goalRequest(body), { ...context, actor: request.user?.id ?? body.user_id }));
    return ok(accepted);
  }

  @Get(':id')
  async get(@Param('id') id: string): Promise<Envelope<GoalView>> {
    const view = await this.queries.view(goalIdParam(id));
    if (!view) throw new DomainError('not_found', 'goal not found');
    return ok(view);
  }
}
