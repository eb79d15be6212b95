/** Admin routes of the accounts context: role management and account counters. */
import { Body, Controller, Get, Inject, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { contentTotals } from '../../projections/content/content-totals';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { RequestContext } from '../common/request-context';
import { ChangeUserRole } from './accounts.commands';
import { AccountsQueries, type UserView } from './accounts.queries';
import { ChangeRoleRequest } from './accounts.requests';
import { Authenticated } from './auth/authenticated.guard';
import type { AuthUser } from './auth/auth-user';
import { CurrentUser } from './auth/current-user.decorator';
import { EnvelopeReply } from '../common/openapi';
import { ACCOUNT_STATS, USER_VIEW } from './accounts.replies';

@Controller(['api/social/admin', 'social/admin'])
@Authenticated('admin')
export class AdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AccountsQueries,
    @Inject(READ_STORE) private readonly store: ReadStore,
  ) {}

  @Get('stats')
  @EnvelopeReply(200, ACCOUNT_STATS)
  async stats(): Promise<Envelope<Record<string, number>>> {
    const [doc, content] = await Promise.all([this.queries.stats(), contentTotals(this.store)]);
    return ok({
      // social-routes §12: total_posts and total_comments count live ones (not deleted), posts hidden by moderation excluded too
      ...content,
      total_users: doc?.total_users ?? 0,
      total_humans: doc?.total_humans ?? 0,
      total_agents: doc?.total_agents ?? 0,
      total_guests: doc?.total_guests ?? 0,
      logins: doc?.logins ?? 0,
      failed_logins: doc?.failed_logins ?? 0,
      api_keys_issued: doc?.api_keys_issued ?? 0,
    });
  }

  @Put('users/:id/role')
  @EnvelopeReply(200, USER_VIEW)
  async changeRole(
    @CurrentUser() admin: AuthUser,
    @Param('id') id: string,
    @Body() body: ChangeRoleRequest,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<UserView>> {
    return ok(await this.commands.execute(new ChangeUserRole({ userId: id, role: body.role, changedBy: admin.id }, context)));
  }
}
