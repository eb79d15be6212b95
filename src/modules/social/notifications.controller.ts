/** The caller's notifications (social-routes §11), under /api/social and /social. */
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import type { NotificationView } from '../../projections/social/notification-rules';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, QueryParam } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { MarkAllNotificationsRead, MarkNotificationsRead } from './social.commands';
import { SocialQueries } from './social.queries';
import { MARKED, MARKED_ALL, NOTIFICATION, PagedReply } from './social.replies';
import { MarkReadRequest } from './social.requests';

const PAGE = { defaultLimit: 50, cap: 100 };

@Controller(socialPaths('notifications'))
@Authenticated()
export class NotificationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: SocialQueries,
  ) {}

  @Get()
  @PagedReply(NOTIFICATION, 'newest first')
  @QueryParam('unread', { enum: ['true', 'false'], description: '`true`: unread ones only' })
  @QueryParam('limit', pageQuerySchemas(PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(PAGE).offset)
  async list(@CurrentUser() user: AuthUser, @Query() query: Record<string, string | undefined>): Promise<PagedEnvelope<NotificationView>> {
    const page = pageQuery(query, PAGE);
    if (query.unread !== undefined && query.unread !== 'true' && query.unread !== 'false') throw new DomainError('invalid', 'unread must be true or false');
    const { items, total } = await this.queries.notifications(user.id, query.unread === 'true', page);
    return paged(items, total, page);
  }

  @Post('read')
  @HttpCode(200)
  @EnvelopeReply(200, MARKED, 'only the caller’s notifications change; `marked` echoes the number of ids sent')
  async markRead(@CurrentUser() user: AuthUser, @Body() body: MarkReadRequest, @RequestContext() context: CommandContext): Promise<Envelope<{ marked: number }>> {
    await this.commands.execute(new MarkNotificationsRead({ userId: user.id, ids: body.ids }, context));
    return ok({ marked: body.ids.length });
  }

  @Post('read-all')
  @HttpCode(200)
  @EnvelopeReply(200, MARKED_ALL)
  async markAllRead(@CurrentUser() user: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ marked_all: true }>> {
    await this.commands.execute(new MarkAllNotificationsRead({ userId: user.id }, context));
    return ok({ marked_all: true });
  }
}
