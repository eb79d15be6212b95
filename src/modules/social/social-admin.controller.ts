/**
 * Admin routes over accounts (social-routes §12), under /api/social and
 * /social: the user list with ban state and e-mail, an admin's edit of any
 * account (a role sets the flags: §0.2), bans under both route families, and
 * the node's recent log entries.
 */
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { type LogEntry, RECENT_LOGS } from '../../infrastructure/observability/recent-logs';
import { Authenticated, RoleRefusal } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, list, oneOf, QueryParam, Refusal } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { AdminUpdateUser, SetUserBan } from './social.commands';
import { type AdminUserView, SocialQueries } from './social.queries';
import { ADMIN_USER, BANNED, LOG_ENTRY, PagedReply, UNBANNED } from './social.replies';
import { AdminUpdateUserRequest, LOG_LEVELS } from './social.requests';

const USERS_PAGE = { defaultLimit: 50, cap: 100 };
const LOGS_PAGE = { defaultLimit: 100, cap: 500 };

@Controller(socialPaths())
@Authenticated('admin')
@RoleRefusal('Admin access required')
export class SocialAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: SocialQueries,
  ) {}

  @Get('admin/users')
  @PagedReply(ADMIN_USER, 'newest first')
  @QueryParam('limit', pageQuerySchemas(USERS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(USERS_PAGE).offset)
  async users(@Query() query: Record<string, string | undefined>): Promise<PagedEnvelope<AdminUserView>> {
    const page = pageQuery(query, USERS_PAGE);
    const { items, total } = await this.queries.adminUsers(page);
    return paged(items, total, page);
  }

  @Patch('admin/users/:id')
  @EnvelopeReply(200, ADMIN_USER)
  @Refusal(404, '`User not found`')
  async update(
    @Param('id') id: string,
    @Body() body: AdminUpdateUserRequest,
    @CurrentUser() admin: AuthUser,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<AdminUserView>> {
    const user = await this.queries.user(id);
    const changes = { display_name: body.display_name?.trim(), bio: body.bio, is_verified: body.is_verified };
    return ok(await this.commands.execute(new AdminUpdateUser({ userId: user.id, changes, role: body.role, isBanned: body.is_banned, by: admin.id }, context)));
  }

  @Post(['admin/users/:id/ban', 'moderation/ban/:id'])
  @HttpCode(200)
  @EnvelopeReply(200, BANNED, 'every credential of the user is refused from now on (401 `Account banned`)')
  @Refusal(404, '`User not found`')
  async ban(@Param('id') id: string, @CurrentUser() admin: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ banned: true }>> {
    const user = await this.queries.user(id);
    if (user.id === admin.id) throw new DomainError('invalid', 'Cannot ban yourself');
    await this.commands.execute(new SetUserBan({ userId: user.id, banned: true, by: admin.id }, context));
    return ok({ banned: true });
  }

  @Delete(['admin/users/:id/ban', 'moderation/ban/:id'])
  @EnvelopeReply(200, UNBANNED)
  @Refusal(404, '`User not found`')
  async unban(@Param('id') id: string, @CurrentUser() admin: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ unbanned: true }>> {
    const user = await this.queries.user(id);
    await this.commands.execute(new SetUserBan({ userId: user.id, banned: false, by: admin.id }, context));
    return ok({ unbanned: true });
  }

  @Get('admin/logs')
  @EnvelopeReply(200, list(LOG_ENTRY), 'newest first, from this process’s in-memory ring of recent lines')
  @QueryParam('level', oneOf(LOG_LEVELS))
  @QueryParam('limit', pageQuerySchemas(LOGS_PAGE).limit)
  logs(@Query() query: Record<string, string | undefined>): Envelope<LogEntry[]> {
    const { limit } = pageQuery({ limit: query.limit }, LOGS_PAGE);
    const level = query.level?.trim().toLowerCase() || null;
    if (level && !(LOG_LEVELS as readonly string[]).includes(level)) throw new DomainError('invalid', `level must be one of ${LOG_LEVELS.join(', ')}`);
    return ok(RECENT_LOGS.entries(limit, level));
  }
}
