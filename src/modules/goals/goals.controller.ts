/**
 * Goals over HTTP (issue 7, item 6; docs/goals-and-hive.md):
 * - POST /goals {user_id, goal, subtasks?, timeout_sec?, max_attempts?}:
 *   plans the sub-tasks (goal-planner.ts), records GoalAccepted and answers
 *   202: the work itself happens over the hive, after the request.
 * - GET /goals/:id: the goal's status from the `goals` read model.
 * Like /chat: anonymous callers act for the body's user_id, an authenticated
 * caller only for itself (403 otherwise). GET is open to whoever holds the
 * goal id (a random UUID). Bodies use the `{success, data}` envelope, errors
 * `{success:false, error}`.
 */
import { randomUUID } from 'node:crypto';
import { BadRequestException, Body, Controller, ForbiddenException, Get, HttpCode, Inject, NotFoundException, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { LLM, type LanguageModel } from '../../infrastructure/llm/llm.port';
import { OptionallyAuthenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { RequestContext } from '../common/request-context';
import { CreateGoalDto, DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT_SEC } from './dto/goals.dto';
import { planGoal } from './goal-planner';
import { AcceptGoal, type AcceptedGoal } from './goals.commands';
import { GoalsQueries, type GoalView } from './goals.queries';

const GOAL_ID = /^[A-Za-z0-9_-]{1,128}$/;

@Controller('goals')
@OptionallyAuthenticated()
export class GoalsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: GoalsQueries,
    @Inject(LLM) private readonly llm: LanguageModel,
  ) {}

  @Post()
  @HttpCode(202)
  async create(
    @Req() request: FastifyRequest & { user?: AuthUser },
    @Body() body: CreateGoalDto,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<AcceptedGoal>> {
    if (request.user && request.user.id !== body.user_id) throw new ForbiddenException('user_id must be the authenticated user');
    const plan = await planGoal(body.goal, this.llm, body.subtasks);
    const accepted = await this.commands.execute(
      new AcceptGoal(
        {
          goalId: randomUUID(),
          userId: body.user_id,
          goal: body.goal,
          subtasks: plan.subtasks,
          plannedBy: plan.plannedBy,
          timeoutSec: body.timeout_sec ?? DEFAULT_TIMEOUT_SEC,
          maxAttempts: body.max_attempts ?? DEFAULT_MAX_ATTEMPTS,
        },
        { ...context, actor: request.user?.id ?? body.user_id },
      ),
    );
    return ok(accepted);
  }

  @Get(':id')
  async get(@Param('id') id: string): Promise<Envelope<GoalView>> {
    if (!GOAL_ID.test(id)) throw new BadRequestException('goal id must be 1-128 characters of letters, digits, _ -');
    const view = await this.queries.view(id);
    if (!view) throw new NotFoundException('goal not found');
    return ok(view);
  }
}
