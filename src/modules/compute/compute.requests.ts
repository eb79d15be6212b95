/**
 * Requests of the compute routes. Bodies: every field is optional, but a
 * field that is present must be valid (null included: it is refused, not
 * treated as absent); unknown fields are dropped by the validation pipe.
 * Query strings and path ids have readers.
 */
import { randomUUID } from 'node:crypto';
import { IsBoolean, IsIn, IsInt, IsNumber, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { CAUSE_ALIGNMENTS, COMPUTE_POLICIES } from '../../aggregates/compute/compute-fields';
import type { DashboardScope } from '../../aggregates/compute/provider-access';
import { DomainError } from '../../aggregates/shared/domain-error';
import { invalid } from '../common/body-fields';
import type { JsonSchema } from '../common/openapi';
import type { RecordComputeServed, RecordRevenue } from './compute.commands';

const Present = () => ValidateIf((_object: object, value: unknown) => value !== undefined);
const Amount = () => IsNumber({ allowNaN: false, allowInfinity: false });
const ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export class JoinProviderDto {
  @Present() @IsIn(CAUSE_ALIGNMENTS) cause_alignment?: string;
  @Present() @Amount() @Min(0) electricity_rate_kwh?: number;
  @Present() @Amount() @Min(0) offered_gpu_hours_per_day?: number;
  @Present() @IsIn(COMPUTE_POLICIES) compute_policy?: string;
  @Present() @IsBoolean() accept_thought_experiments?: boolean;
}

export class UpdateComputeSettingsDto extends JoinProviderDto {
  @Present() @IsIn(COMPUTE_POLICIES) hive_compute_policy?: string;
  @Present() @IsInt() @Min(0) @Max(100) max_hive_gpu_pct?: number;
  @Present() @IsBoolean() allow_metered_for_hive?: boolean;
  @Present() @Amount() @Min(0) metered_daily_limit_usd?: number;
  @Present() @IsBoolean() accept_frontier_training?: boolean;
  @Present() @IsBoolean() auto_settle?: boolean;
  @Present() @IsInt() @Min(0) min_settlement_spark?: number;
}

export class ComputeServedDto {
  /** idempotency key: the same report_id is recorded once */
  @Present() @IsString() @Matches(ID, { message: 'report_id must be 1..128 of letters, digits, _ . : -' }) report_id?: string;
  @Present() @Amount() @Min(0) gpu_hours?: number;
  @Present() @IsInt() @Min(0) inferences?: number;
  @Present() @Amount() @Min(0) energy_kwh?: number;
  @Present() @Amount() @Min(0) metered_api_cost_usd?: number;
}

export class RequestSettlementDto {
  @Amount() @Min(0.01) amount_usd!: number;
}

export class RecordRevenueDto {
  @IsIn(['api', 'ad', 'hosting_payout']) stream!: 'api' | 'ad' | 'hosting_payout';
  @IsInt() @Min(1) amount_cents!: number;
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
