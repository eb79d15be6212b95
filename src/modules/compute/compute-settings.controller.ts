/**
 * /api/settings/compute (SPEC §4.3). Success bodies are plain JSON as the SPEC
 * shows them (no `{success, data}` envelope); errors go through the common
 * filter, except the central-tier refusal whose body the SPEC fixes.
 */
import { BadRequestException, Body, Controller, ForbiddenException, Get, HttpCode, NotFoundException, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { RequestContext } from '../common/request-context';
import { CompleteSettlement, JoinComputeProvider, RecordComputeServed, RequestSettlement, UpdateComputeSettings } from './commands';
import { ComputeQueries } from './compute.queries';
import { ComputeServedDto, JoinProviderDto, RequestSettlementDto, UpdateComputeSettingsDto } from './dto/compute.dto';
import { randomUUID } from 'node:crypto';

const ID = /^[A-Za-z0-9_.:-]{1,128}$/;

function defined(dto: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(dto).filter(([, value]) => value !== undefined));
}

@Controller('api/settings/compute')
export class ComputeSettingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ComputeQueries,
  ) {}

  @Get()
  @Authenticated('operator', 'admin')
  settings() {
    return this.queries.settings();
  }

  @Put()
  @Authenticated('operator', 'admin')
  update(@Body() body: UpdateComputeSettingsDto, @RequestContext() context: CommandContext) {
    return this.commands.execute(new UpdateComputeSettings(defined(body), context));
  }

  /**
   * The provider dashboard. Operators: this node only. Admins: this node by
   * default, `?node_id=` for any node this node knows, `?scope=all` for all.
   */
  @Get('provider')
  @Authenticated('operator', 'admin')
  async provider(@CurrentUser() user: AuthUser, @Query('node_id') nodeId?: unknown, @Query('scope') scope?: unknown) {
    if (scope !== undefined) {
      if (scope !== 'all') throw new BadRequestException('scope must be all');
      if (user.role !== 'admin') throw new ForbiddenException('admin role required to see all nodes');
      return { nodes: await this.queries.allProviderDashboards() };
    }
    const target = nodeId === undefined ? this.queries.nodeId : nodeId;
    if (typeof target !== 'string' || !ID.test(target)) throw new BadRequestException('node_id must be 1..128 of letters, digits, _ . : -');
    if (target !== this.queries.nodeId && user.role !== 'admin') throw new ForbiddenException('operators see their own node only');
    const dashboard = await this.queries.providerDashboard(target);
    if (!dashboard) throw new NotFoundException('node not found');
    return dashboard;
  }

  /** Open to any node (SPEC §5 point 4): no authentication. */
  @Post('provider/join')
  @HttpCode(200)
  async join(@Body() body: JoinProviderDto, @RequestContext() context: CommandContext) {
    const { joined } = await this.commands.execute(new JoinComputeProvider(defined(body), context));
    const { sources: _sources, node_tier: _tier, node_id, ...config } = await this.queries.settings();
    return { joined, node_id, config };
  }

  /** Ingestion of served compute until the serving subsystem reports it itself. */
  @Post('provider/served')
  @Authenticated('operator', 'admin')
  served(@Body() body: ComputeServedDto, @RequestContext() context: CommandContext) {
    return this.commands.execute(
      new RecordComputeServed(
        body.report_id ?? randomUUID(),
        { gpuHours: body.gpu_hours ?? 0, inferences: body.inferences ?? 0, energyKwh: body.energy_kwh ?? 0, meteredApiCostUsd: body.metered_api_cost_usd ?? 0 },
        context,
      ),
    );
  }

  @Post('provider/settlements')
  @Authenticated('operator', 'admin')
  requestSettlement(@Body() body: RequestSettlementDto, @RequestContext() context: CommandContext) {
    return this.commands.execute(new RequestSettlement(Math.round(body.amount_usd * 100), context));
  }

  @Post('provider/settlements/:id/complete')
  @HttpCode(200)
  @Authenticated('admin')
  completeSettlement(@Param('id') id: string, @RequestContext() context: CommandContext) {
    if (!ID.test(id)) throw new NotFoundException('settlement not found');
    return this.commands.execute(new CompleteSettlement(id, context));
  }
}
