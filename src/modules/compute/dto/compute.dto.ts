/**
 * Bodies of the compute-settings routes. Every field is optional, but a field
 * that is present must be valid (null included: it is refused, not treated as
 * absent); unknown fields are dropped by the validation pipe.
 */
import { IsBoolean, IsIn, IsInt, IsNumber, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { CAUSE_ALIGNMENTS, COMPUTE_POLICIES } from '../../../aggregates/compute/compute-fields';

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
