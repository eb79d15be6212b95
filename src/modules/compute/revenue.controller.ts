/** /api/revenue (SPEC §2.3, §4.2): the dashboard, and the admin ingestion of revenue entries. */
import { randomUUID } from 'node:crypto';
import { BadRequestException, Body, Controller, Get, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Clock } from '../../infrastructure/clock';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { CommandContext } from '../common/command-executor';
import { RequestContext } from '../common/request-context';
import { RecordRevenue } from './commands';
import { ComputeQueries } from './compute.queries';
import { RecordRevenueDto } from './dto/compute.dto';

export function parsePeriodDays(value: unknown): number {
  if (value === undefined) return 30;
  if (typeof value !== 'string' || !/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 365) {
    throw new BadRequestException('period_days must be an integer from 1 to 365');
  }
  return Number(value);
}

@Controller('api/revenue')
export class RevenueController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ComputeQueries,
    private readonly clock: Clock,
  ) {}

  @Get('dashboard')
  @Authenticated('operator', 'admin')
  dashboard(@Query('period_days') periodDays?: unknown) {
    return this.queries.revenueDashboard(parsePeriodDays(periodDays), this.clock.now());
  }

  @Post('records')
  @Authenticated('admin')
  record(@Body() body: RecordRevenueDto, @RequestContext() context: CommandContext) {
    return this.commands.execute(new RecordRevenue(body.entry_id ?? randomUUID(), body.stream, body.amount_cents, body.occurred_at ?? null, context));
  }
}
