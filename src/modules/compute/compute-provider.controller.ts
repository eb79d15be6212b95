/**
 * /api/settings/compute/provider (SPEC §4.3, §5 point 4): the provider
 * dashboard, joining as a provider, served compute and settlements. Plain
 * JSON bodies as the SPEC shows them.
 */
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Authenticated, OptionallyAuthenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { RequestContext } from '../common/request-context';
import { CompleteSettlement, JoinComputeProvider, RecordComputeServed, RequestSettlement } from './compute.commands';
import { ComputeServedDto, DASHBOARD_QUERY_SCHEMAS, dashboardScope, JoinProviderDto, RequestSettlementDto, servedReport, settlementIdParam } from './compute.requests';
import { ComputeProviderQueries } from './compute-provider.queries';
import { QueryParam, Reply } from '../common/openapi';
import { PROVIDER_JOINED, PROVIDER_VIEW, SERVED_RECORDED, SETTLEMENT_COMPLETED, SETTLEMENT_REQUESTED } from './compute.replies';

@Controller('api/settings/compute/provider')
export class ComputeProviderController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ComputeProviderQueries,
  ) {}

  /**
   * The provider dashboard. Operators: this node only. Admins: this node by
   * default, `?node_id=` for any node this node knows, `?scope=all` for all.
   */
  @Get()
  @Reply(200, PROVIDER_VIEW)
  @QueryParam('node_id', DASHBOARD_QUERY_SCHEMAS.node_id)
  @QueryParam('scope', DASHBOARD_QUERY_SCHEMAS.scope)
  @Authenticated('operator', 'admin')
  provider(@CurrentUser() user: AuthUser, @Query() query: Record<string, unknown>) {
    return this.queries.visibleTo(user.role, dashboardScope(query));
  }

  /**
   * Open to any node (SPEC §5 point 4): no authentication needed. The policy
   * fields take effect only for an operator or admin; every field is optional.
   */
  @Post('join')
  @HttpCode(200)
  @Reply(200, PROVIDER_JOINED)
  @OptionallyAuthenticated()
  join(@Req() request: { user?: AuthUser }, @Body() body: JoinProviderDto, @RequestContext() context: CommandContext) {
    const setsPolicy = request.user?.role === 'operator' || request.user?.role === 'admin';
    return this.commands.execute(new JoinComputeProvider({ changes: { ...body }, setsPolicy }, context));
  }

  /** Ingestion of served compute until the serving subsystem reports it itself. */
  @Post('served')
  @Reply(201, SERVED_RECORDED)
  @Authenticated('operator', 'admin')
  served(@Body() body: ComputeServedDto, @RequestContext() context: CommandContext) {
    return this.commands.execute(new RecordComputeServed(servedReport(body), context));
  }

  @Post('settlements')
  @Reply(201, SETTLEMENT_REQUESTED)
  @Authenticated('operator', 'admin')
  requestSettlement(@Body() body: RequestSettlementDto, @RequestContext() context: CommandContext) {
    return this.commands.execute(new RequestSettlement({ amountCents: Math.round(body.amount_usd * 100) }, context));
  }

  @Post('settlements/:id/complete')
  @HttpCode(200)
  @Reply(200, SETTLEMENT_COMPLETED)
  @Authenticated('admin')
  completeSettlement(@Param('id') id: string, @RequestContext() context: CommandContext) {
    return this.commands.execute(new CompleteSettlement({ settlementId: settlementIdParam(id) }, context));
  }
}
