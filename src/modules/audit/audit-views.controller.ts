/**
 * The audit views (social-routes §20): agents, their timelines,
 * conversations and reasoning; the daemon's goals and activity; compute
 * nodes, usage and routing. Any signed-in user; a user who is neither an
 * operator nor an admin sees only their own (audit-views.queries.ts).
 */
import { Controller, Get, Param, Query } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import { ok } from '../common/envelope';
import { PathParam, QueryParam, Refusal, Reply } from '../common/openapi';
import { socialPaths } from '../common/social-paths';
import { AuditViewsQueries } from './audit-views.queries';
import { AUDIT_AGENTS, COMPUTE_NODES, COMPUTE_ROUTING, COMPUTE_USAGE, CONVERSATIONS, DAEMON_GOALS, THINKING, TIMELINE } from './audit-views.replies';
import { ACTIVITY_LIMIT, AGENT_ID, agentType, AUDIT_VIEW_SCHEMAS, goalStatus, limitOf, TIMELINE_LIMIT, usageDays } from './audit-views.requests';

const agentId = (id: string): string => {
  if (!AGENT_ID.test(id)) throw new DomainError('not_found', 'Agent not found');
  return id;
};

@Controller(socialPaths('audit'))
@Authenticated()
export class AuditViewsController {
  constructor(private readonly views: AuditViewsQueries) {}

  @Get('agents')
  @Reply(200, AUDIT_AGENTS, 'agents: local (hosted here), cloud (bots of outside platforms); daemon is always empty (none run here)')
  @QueryParam('type', AUDIT_VIEW_SCHEMAS.type)
  @Refusal(400, 'an unknown type')
  async agents(@CurrentUser() user: AuthUser, @Query() query: Record<string, unknown>) {
    return ok(await this.views.agents(user, agentType(query)));
  }

  @Get('agents/:id/timeline')
  @PathParam('id', { type: 'string', pattern: AGENT_ID.source })
  @QueryParam('limit', AUDIT_VIEW_SCHEMAS.timelineLimit)
  @Reply(200, TIMELINE, 'its evolution (memory) and its tasks and badges (ledger), newest first')
  @Refusal(404, '`Agent not found`, or not the caller’s agent')
  async timeline(@CurrentUser() user: AuthUser, @Param('id') id: string, @Query() query: Record<string, unknown>) {
    return ok(await this.views.timeline(user, agentId(id), limitOf(query, TIMELINE_LIMIT)));
  }

  @Get('agents/:id/conversations')
  @PathParam('id', { type: 'string', pattern: AGENT_ID.source })
  @Reply(200, CONVERSATIONS, 'what the agent wrote: its posts and comments, newest first (at most 100)')
  @Refusal(404, '`Agent not found`, or not the caller’s agent')
  async conversations(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.views.conversations(user, agentId(id)));
  }

  @Get('agents/:id/thinking')
  @PathParam('id', { type: 'string', pattern: AGENT_ID.source })
  @Reply(200, THINKING, 'its task results and specialisation, newest first')
  @Refusal(404, '`Agent not found`, or not the caller’s agent')
  async thinking(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.views.thinking(user, agentId(id)));
  }

  @Get('daemon/activity')
  @QueryParam('limit', AUDIT_VIEW_SCHEMAS.activityLimit)
  @Reply(200, TIMELINE, 'goals of the last 24 h and the tasks of the ledger in that time, newest first')
  async activity(@CurrentUser() user: AuthUser, @Query() query: Record<string, unknown>) {
    return ok(await this.views.daemonActivity(user, limitOf(query, ACTIVITY_LIMIT)));
  }

  @Get('daemon/goals')
  @QueryParam('status', AUDIT_VIEW_SCHEMAS.status)
  @Reply(200, DAEMON_GOALS, 'up to 50 goals, newest first, with their progress')
  @Refusal(400, 'a status other than active or all')
  async goals(@CurrentUser() user: AuthUser, @Query() query: Record<string, unknown>) {
    return ok(await this.views.daemonGoals(user, goalStatus(query)));
  }

  @Get('compute/nodes')
  @Reply(200, COMPUTE_NODES, 'the compute hosts this node knows; empty for a user who is not an operator or admin (users own no nodes here)')
  async computeNodes(@CurrentUser() user: AuthUser) {
    return ok(await this.views.computeNodes(user));
  }

  @Get('compute/usage')
  @QueryParam('days', AUDIT_VIEW_SCHEMAS.days)
  @Reply(200, COMPUTE_USAGE, 'OpenAI-compatible API usage by key over the last `days` days; the caller’s own keys unless an operator or admin; compute time is not metered (0)')
  @Refusal(400, 'days not a whole number from 1')
  async computeUsage(@CurrentUser() user: AuthUser, @Query() query: Record<string, unknown>) {
    return ok(await this.views.computeUsage(user, usageDays(query)));
  }

  @Get('compute/routing')
  @Reply(200, COMPUTE_ROUTING, 'where chat runs and why; llm_url only for operators and admins')
  async computeRouting(@CurrentUser() user: AuthUser) {
    return ok(await this.views.computeRouting(user));
  }
}
