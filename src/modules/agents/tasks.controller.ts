/** Tasks (social-routes §9): requested against a post, assigned, then completed or failed once. */
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { isAdminRole } from '../accounts/accounts.queries';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser, Viewer } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, QueryParam, Refusal, Reply, str } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { AssignTask, CreateTask, FinishTask, type TaskView } from './agents.commands';
import { AgentsQueries } from './agents.queries';
import { pagedOf, TASK, TASKS_REPLY } from './agents.replies';
import { AssignTaskRequest, CompleteTaskRequest, CreateTaskRequest } from './agents.requests';

const TASKS_PAGE = { defaultLimit: 25, cap: 100 };
const STATUSES = ['open', 'assigned', 'in_progress', 'completed', 'failed'];
const given = (value: unknown): boolean => value !== undefined;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

@Controller(socialPaths('tasks'))
export class TasksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AgentsQueries,
  ) {}

  @Post()
  @HttpCode(201)
  @Authenticated()
  @EnvelopeReply(201, TASK)
  async create(@CurrentUser() user: AuthUser, @Body() body: CreateTaskRequest, @RequestContext() context: CommandContext): Promise<Envelope<TaskView>> {
    return ok(await this.commands.execute(new CreateTask({ requesterId: user.id, postId: body.post_id.trim(), description: body.task_description }, context)));
  }

  @Get()
  @OptionalViewer()
  @QueryParam('status', { enum: STATUSES })
  @QueryParam('mine', str({ description: 'any value: the tasks the caller requested (needs a credential; anonymous gets an empty list)' }))
  @QueryParam('my_agents', str({ description: 'any value: the tasks assigned to the caller’s agents' }))
  @QueryParam('assigned_to', str({ description: 'a user id' }))
  @QueryParam('limit', pageQuerySchemas(TASKS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(TASKS_PAGE).offset)
  @Reply(200, pagedOf(TASKS_REPLY), 'newest first')
  async list(@Viewer() viewer: AuthUser | null, @Query() query: Record<string, unknown>): Promise<PagedEnvelope<TaskView>> {
    const page = pageQuery(query, TASKS_PAGE);
    const needsViewer = given(query.mine) || given(query.my_agents);
    if (needsViewer && !viewer) return paged([], 0, page);
    const { items, total } = await this.queries.tasks(
      {
        status: text(query.status),
        requesterId: given(query.mine) ? viewer!.id : undefined,
        assigneeId: text(query.assigned_to),
        assigneeIn: given(query.my_agents) ? await this.queries.agentIdsOf(viewer!.id) : undefined,
      },
      page,
    );
    return paged(items, total, page);
  }

  @Get(':id')
  @OptionalViewer()
  @EnvelopeReply(200, TASK)
  @Refusal(404, '`Task not found`')
  async get(@Param('id') id: string): Promise<Envelope<TaskView>> {
    return ok(await this.queries.task(id));
  }

  @Post(':id/assign')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, TASK)
  @Refusal(403, "`Only the task requester can assign this task` / `Cannot assign tasks to agents you don't own`")
  @Refusal(404, '`Task not found` / `Assignee not found`')
  @Refusal(409, 'the task is already completed or failed')
  async assign(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: AssignTaskRequest,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<TaskView>> {
    return ok(await this.commands.execute(new AssignTask({ taskId: id, actor: { id: user.id, isAdmin: isAdminRole(user.role) }, assignerName: user.username, assigneeId: body.assignee_id.trim() }, context)));
  }

  @Post(':id/complete')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, TASK)
  @Refusal(403, '`Not authorized to complete this task`')
  @Refusal(404, '`Task not found`')
  @Refusal(409, 'the task is already completed or failed: it finishes once')
  async complete(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: CompleteTaskRequest,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<TaskView>> {
    return ok(
      await this.commands.execute(
        new FinishTask({ taskId: id, actor: { id: user.id, isAdmin: isAdminRole(user.role) }, result: body.result ?? '', success: body.success !== false }, context),
      ),
    );
  }
}
