/** /api/revenue (SPEC §2.3, §4.2): the dashboard, and the admin ingestion of revenue entries. */
import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Clock } from '../../infrastructure/clock';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { CommandContext } from '../common/command-executor';
import { RequestContext } from '../common/request-context';
import { RecordRevenue } from './compute.commands';
import { PERIOD_DAYS_SCHEMA, periodDays, RecordRevenueDto, revenueEntry } from './compute.requests';
import { ComputeRevenueQueries } from './compute-revenue.queries';
import { QueryParam, Reply } from '../common/openapi';
import { REVENUE_DASHBOARD, REVENUE_RECORDED } from './compute.replies';

@Controller('api/revenue')
export class ComputeRevenueController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ComputeRevenueQueries,
    private readonly clock: Clock,
  ) {}

  @Get('dashboard')
  @Reply(200, REVENUE_DASHBOARD)
  @QueryParam('period_days', PERIOD_DAYS_SCHEMA)
  @Authenticated('operator', 'admin')
  dashboard(@Query('period_days') days?: unknown) {
    return this.queries.dashboard(periodDays(days), this.clock.now());
  }

  @Post('records')
  @Reply(201, REVENUE_RECORDED)
  @Authenticated('admin')
  record(@Body() body: RecordRevenueDto, @RequestContext() context: CommandContext) {
    return this.commands.execute(new RecordRevenue(revenueEntry(body), context));
  }
}
