/**
 * Moderation of content (social-routes §12): reports (/moderation/reports and
 * /admin/moderation/reports), hiding and deleting posts and comments
 * (/admin/moderation/posts|comments). Moderators are the global flag
 * (role operator or admin: 403 `Moderator access required`); deleting needs
 * an admin (403 `Admin access required`). Both are declared on each route
 * with @Authenticated(roles), so the guard refuses before the handler runs
 * and the OpenAPI document shows the roles (x-roles).
 */
import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { ReportRecord } from '../../aggregates/content/report';
import { DomainError } from '../../aggregates/shared/domain-error';
import type { ReportDoc } from '../../projections/content/reports.projection';
import { Authenticated, RoleRefusal } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, QueryParam, ReadBody, Refusal, str } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { DeleteComment, DeletePost, HideComment, ReviewReport, SetPostHidden } from './content.commands';
import { ContentQueries } from './content.queries';
import { flagReply, PagedReply, REPORT_VIEW } from './content.replies';
import { REVIEW_BODY_SCHEMA, reviewRequest } from './content.requests';
import { caller } from './posts.controller';

const REPORTS_PAGE = { defaultLimit: 50, cap: 100 };

/** The global moderators: role operator (the original's regional) or admin. */
const ModeratorsOnly = () => applyDecorators(Authenticated('operator', 'admin'), RoleRefusal('Moderator access required'));
const AdminsOnly = () => applyDecorators(Authenticated('admin'), RoleRefusal('Admin access required'));

function statusFilter(value: unknown): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || value.length > 50) throw new DomainError('invalid', 'status must be a string of at most 50 characters');
  return value;
}

@Controller(socialPaths())
export class ModerationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ContentQueries,
  ) {}

  private async reports(query: Record<string, unknown>): Promise<PagedEnvelope<ReportDoc>> {
    const page = pageQuery(query, REPORTS_PAGE);
    const { items, total } = await this.queries.reportsPage(statusFilter(query.status), page);
    return paged(items, total, page);
  }

  private async review(user: AuthUser, id: string, body: unknown, context: CommandContext): Promise<Envelope<ReportRecord>> {
    const status = reviewRequest(body);
    await this.queries.report(id);
    return ok(await this.commands.execute(new ReviewReport({ reportId: id, moderatorId: user.id, status }, context)));
  }

  @Get('moderation/reports')
  @QueryParam('status', str())
  @QueryParam('limit', pageQuerySchemas(REPORTS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(REPORTS_PAGE).offset)
  @PagedReply(REPORT_VIEW, 'newest first')
  @ModeratorsOnly()
  @Refusal(403, '`Moderator access required`')
  listReports(@Query() query: Record<string, unknown>) {
    return this.reports(query);
  }

  @Patch('moderation/reports/:id')
  @ReadBody(REVIEW_BODY_SCHEMA)
  @EnvelopeReply(200, REPORT_VIEW, 'sets the status (default `reviewed`) and the moderator')
  @ModeratorsOnly()
  @Refusal(403, '`Moderator access required`')
  @Refusal(404, '`Report not found`')
  reviewReport(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() body: unknown, @RequestContext() context: CommandContext) {
    return this.review(user, id, body, context);
  }

  @Get('admin/moderation/reports')
  @QueryParam('status', str())
  @QueryParam('limit', pageQuerySchemas(REPORTS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(REPORTS_PAGE).offset)
  @PagedReply(REPORT_VIEW, 'newest first')
  @ModeratorsOnly()
  @Refusal(403, '`Moderator access required`')
  adminReports(@Query() query: Record<string, unknown>) {
    return this.reports(query);
  }

  @Get('admin/moderation/reports/:id')
  @EnvelopeReply(200, REPORT_VIEW)
  @ModeratorsOnly()
  @Refusal(403, '`Moderator access required`')
  @Refusal(404, '`Report not found`')
  async adminReport(@Param('id') id: string): Promise<Envelope<ReportDoc>> {
    return ok(await this.queries.report(id));
  }

  @Post('admin/moderation/reports/:id/resolve')
  @HttpCode(200)
  @ReadBody(REVIEW_BODY_SCHEMA)
  @EnvelopeReply(200, REPORT_VIEW)
  @ModeratorsOnly()
  @Refusal(403, '`Moderator access required`')
  @Refusal(404, '`Report not found`')
  resolve(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() body: unknown, @RequestContext() context: CommandContext) {
    return this.review(user, id, body, context);
  }

  @Post('admin/moderation/posts/:id/hide')
  @HttpCode(200)
  @EnvelopeReply(200, flagReply('hidden'))
  @ModeratorsOnly()
  @Refusal(403, '`Moderator access required`')
  @Refusal(404, '`Post not found`')
  async hidePost(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ hidden: boolean }>> {
    return ok(await this.commands.execute(new SetPostHidden({ postId: id, caller: caller(user), hidden: true }, context)));
  }

  @Delete('admin/moderation/posts/:id/hide')
  @EnvelopeReply(200, flagReply('hidden'))
  @ModeratorsOnly()
  @Refusal(403, '`Moderator access required`')
  @Refusal(404, '`Post not found`')
  async unhidePost(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ hidden: boolean }>> {
    return ok(await this.commands.execute(new SetPostHidden({ postId: id, caller: caller(user), hidden: false }, context)));
  }

  @Delete('admin/moderation/posts/:id')
  @EnvelopeReply(200, flagReply('deleted'), 'soft delete; post counts untouched')
  @AdminsOnly()
  @Refusal(403, '`Admin access required`')
  @Refusal(404, '`Post not found`')
  async deletePost(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ deleted: true }>> {
    return ok(await this.commands.execute(new DeletePost({ postId: id, caller: caller(user), by: 'moderation' }, context)));
  }

  @Post('admin/moderation/comments/:id/hide')
  @HttpCode(200)
  @EnvelopeReply(200, flagReply('hidden'), 'there is no unhide')
  @ModeratorsOnly()
  @Refusal(403, '`Moderator access required`')
  @Refusal(404, '`Comment not found`')
  async hideComment(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ hidden: true }>> {
    return ok(await this.commands.execute(new HideComment({ commentId: id, caller: caller(user) }, context)));
  }

  @Delete('admin/moderation/comments/:id')
  @EnvelopeReply(200, flagReply('deleted'), 'the content is kept')
  @AdminsOnly()
  @Refusal(403, '`Admin access required`')
  @Refusal(404, '`Comment not found`')
  async deleteComment(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ deleted: true }>> {
    return ok(await this.commands.execute(new DeleteComment({ commentId: id, caller: caller(user), by: 'moderation' }, context)));
  }
}
