/**
 * Requests of the compute routes. Bodies: every field is optional, but a
 * field that is present must be valid (null included: it is refused, not
 * treated as absent); unknown fields are dropped by the validation pipe.
 * Every number has a finite range (RANGES, docs/api.md): a figure that is
 * stored for ever must not turn the dashboards' sums into Infinity.
 * Query strings and path ids have readers.
 */
import { randomUUID } from 'node:crypto';
import { IsBoolean, IsIn, IsString, Matches, ValidateIf } from 'class-validator';
import { CAUSE_ALIGNMENTS, COMPUTE_POLICIES } from '../../aggregates/compute/compute-fields';
import type { DashboardScope } from '../../aggregates/compute/provider-access';
import { DomainError } from '../../aggregates/shared/domain-error';
import { InRange, invalid, type NumberRange } from '../common/body-fields';
import type { JsonSchema } from '../common/openapi';
import type { RecordComputeServed, RecordRevenue } from './compute.commands';

const Present = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

/** money in US dollars: at most a billion */
const USD = { min: 0, max: 1e9 };
/** The range of every number of the compute bodies. */
export const RANGES = {
  /** US dollars per kWh */
  electricity_rate_kwh: { min: 0, max: 1000 },
  /** 24 hours of 1024 GPUs */
  offered_gpu_hours_per_day: { min: 0, max: 24 * 1024 },
  max_hive_gpu_pct: { min: 0, max: 100, integer: true },
  metered_daily_limit_usd: USD,
  min_settlement_spark: { min: 0, max: 1e9, integer: true },
  /** one report: up to 40 days of 1024 GPUs */
  gpu_hours: { min: 0, max: 1e6 },
  inferences: { min: 0, max: 1e12, integer: true },
  energy_kwh: { min: 0, max: 1e9 },
  metered_api_cost_usd: USD,
  amount_usd: { min: 0.01, max: 1e9 },
  /** a billion dollars */
  amount_cents: { min: 1, max: 1e11, integer: true },
} satisfies Record<string, NumberRange>;
const ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export class JoinProviderDto {
  @Present() @IsIn(CAUSE_ALIGNMENTS) cause_alignment?: string;
  @Present() @InRange(RANGES.electricity_rate_kwh) electricity_rate_kwh?: number;
  @Present() @InRange(RANGES.offered_gpu_hours_per_day) offered_gpu_hours_per_day?: number;
  @Present() @IsIn(COMPUTE_POLICIES) compute_policy?: string;
  @Present() @IsBoolean() accept_thought_experiments?: boolean;
}

export class UpdateComputeSettingsDto extends JoinProviderDto {
  @Present() @IsIn(COMPUTE_POLICIES) hive_compute_policy?: string;
  @Present() @InRange(RANGES.max_hive_gpu_pct) max_hive_gpu_pct?: number;
  @Present() @IsBoolean() allow_metered_for_hive?: boolean;
  @Present() @InRange(RANGES.metered_daily_limit_usd) metered_daily_limit_usd?: number;
  @Present() @IsBoolean() accept_frontier_training?: boolean;
  @Present() @IsBoolean() auto_settle?: boolean;
  @Present() @InRange(RANGES.min_settlement_spark) min_settlement_spark?: number;
}

export class ComputeServedDto {
  /** idempotency key: the same report_id is recorded once */
  @Present() @IsString() @Matches(ID, { message: 'report_id must be 1..128 of letters, digits, _ . : -' }) report_id?: string;
  @Present() @InRange(RANGES.gpu_hours) gpu_hours?: number;
  @Present() @InRange(RANGES.inferences) inferences?: number;
  @Present() @InRange(RANGES.energy_kwh) energy_kwh?: number;
  @Present() @InRange(RANGES.metered_api_cost_usd) metered_api_cost_usd?: number;
}

export class RequestSettlementDto {
  @InRange(RANGES.amount_usd) amount_usd!: number;
}

export class RecordRevenueDto {
  @IsIn(['api', 'ad', 'hosting_payout']) stream!: 'api' | 'ad' | 'hosting_payout';
  @InRange(RANGES.amount_cents) amount_cents!: number;
  @Present() @IsString() occurred_at?: string;
  @Present() @IsString() @Matches(ID, { message: 'entry_id must be 1..128 of letters, digits, _ . : -' }) entry_id?: string;
}

/** A report without an id gets a new one; absent figures are 0. */
export function servedReport(body: ComputeServedDto): RecordComputeServed['payload'] {
  return {
    reportId: body.report_id ?? randomUUID(),
    gpuHours: body.gpu_hours ?? 0,
    inferences: body.inferences ?? 0,
    energyKwh: body.energy_kwh ?? 0,
    meteredApiCostUsd: body.metered_api_cost_usd ?? 0,
  };
}

/** An entry without an id gets a new one; without a time it happened now. */
export function revenueEntry(body: RecordRevenueDto): RecordRevenue['payload'] {
  return { entryId: body.entry_id ?? randomUUID(), stream: body.stream, amountCents: body.amount_cents, occurredAt: body.occurred_at ?? null };
}

/** The query parameters `dashboardScope` and `periodDays` read, for the OpenAPI document. */
export const DASHBOARD_QUERY_SCHEMAS: Record<'node_id' | 'scope', JsonSchema> = {
  node_id: { type: 'string', pattern: ID.source, description: 'admin: another node this node knows (absent: this node)' },
  scope: { enum: ['all'], description: 'admin: every node; wins over node_id' },
};
export const PERIOD_DAYS_SCHEMA: JsonSchema = { type: 'integer', minimum: 1, maximum: 365, default: 30 };

/** `?scope=all`, or `?node_id=` (absent: this node); scope wins. */
export function dashboardScope(query: { node_id?: unknown; scope?: unknown }): DashboardScope {
  if (query.scope !== undefined) {
    if (query.scope !== 'all') throw invalid('scope must be all');
    return { kind: 'all' };
  }
  const nodeId = query.node_id;
  if (nodeId === undefined) return { kind: 'node', nodeId: null };
  if (typeof nodeId !== 'string' || !ID.test(nodeId)) throw invalid('node_id must be 1..128 of letters, digits, _ . : -');
  return { kind: 'node', nodeId };
}

/** An id no settlement can have is not found. */
export function settlementIdParam(id: string): string {
  if (!ID.test(id)) throw new DomainError('not_found', 'settlement not found');
  return id;
}

/** `?period_days=`: 1..365, default 30. */
export function periodDays(value: unknown): number {
  if (value === undefined) return 30;
  if (typeof value !== 'string' || !/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 365) {
    throw invalid('period_days must be an integer from 1 to 365');
  }
  return Number(value);
}
