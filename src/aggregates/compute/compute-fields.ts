/**
 * The compute settings of a node (SPEC §2.4): which fields exist, where each
 * is stored (node compute config or peer node record), their defaults and
 * their allowed values. Pure: shared by the deciders, the DTOs, the
 * environment loader and the read view.
 */

/** Values of compute_policy and hive_compute_policy (SPEC names local_preferred and local_only; the rest are ours). */
export const COMPUTE_POLICIES = ['local_only', 'local_preferred', 'hive_preferred', 'cloud_allowed'] as const;
export type ComputePolicy = (typeof COMPUTE_POLICIES)[number];

/** Values of cause_alignment (SPEC names democratize_compute and frontier_training; the rest are ours). */
export const CAUSE_ALIGNMENTS = ['democratize_compute', 'frontier_training', 'open_research', 'public_good'] as const;
export type CauseAlignment = (typeof CAUSE_ALIGNMENTS)[number];

export interface PolicySettings {
  compute_policy: ComputePolicy;
  hive_compute_policy: ComputePolicy;
  max_hive_gpu_pct: number;
  allow_metered_for_hive: boolean;
  metered_daily_limit_usd: number;
  offered_gpu_hours_per_day: number;
  accept_thought_experiments: boolean;
  accept_frontier_training: boolean;
  auto_settle: boolean;
  min_settlement_spark: number;
}

export interface PeerSettings {
  cause_alignment: CauseAlignment;
  electricity_rate_kwh: number;
}

export type ComputeSettings = PolicySettings & PeerSettings;
export type ComputeField = keyof ComputeSettings;
export type PolicyField = keyof PolicySettings;
export type PeerField = keyof PeerSettings;

/** enum: one of `values`; percent: integer 0..100; count: non-negative integer; amount: non-negative finite number. */
export type FieldKind =
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'percent' }
  | { kind: 'count' }
  | { kind: 'amount' }
  | { kind: 'boolean' };

export const POLICY_FIELD_KINDS: Record<PolicyField, FieldKind> = {
  compute_policy: { kind: 'enum', values: COMPUTE_POLICIES },
  hive_compute_policy: { kind: 'enum', values: COMPUTE_POLICIES },
  max_hive_gpu_pct: { kind: 'percent' },
  allow_metered_for_hive: { kind: 'boolean' },
  metered_daily_limit_usd: { kind: 'amount' },
  offered_gpu_hours_per_day: { kind: 'amount' },
  accept_thought_experiments: { kind: 'boolean' },
  accept_frontier_training: { kind: 'boolean' },
  auto_settle: { kind: 'boolean' },
  min_settlement_spark: { kind: 'count' },
};

export const PEER_FIELD_KINDS: Record<PeerField, FieldKind> = {
  cause_alignment: { kind: 'enum', values: CAUSE_ALIGNMENTS },
  electricity_rate_kwh: { kind: 'amount' },
};

export const FIELD_KINDS: Record<ComputeField, FieldKind> = { ...POLICY_FIELD_KINDS, ...PEER_FIELD_KINDS };

export const POLICY_FIELDS = Object.keys(POLICY_FIELD_KINDS) as PolicyField[];
export const PEER_FIELDS = Object.keys(PEER_FIELD_KINDS) as PeerField[];
/** In SPEC §2.4's order. */
export const COMPUTE_FIELDS: ComputeField[] = [...POLICY_FIELDS, ...PEER_FIELDS];

export const COMPUTE_DEFAULTS: ComputeSettings = {
  compute_policy: 'local_preferred',
  hive_compute_policy: 'local_preferred',
  max_hive_gpu_pct: 50,
  allow_metered_for_hive: false,
  metered_daily_limit_usd: 0,
  offered_gpu_hours_per_day: 0,
  accept_thought_experiments: true,
  accept_frontier_training: false,
  auto_settle: true,
  min_settlement_spark: 10,
  cause_alignment: 'democratize_compute',
  electricity_rate_kwh: 0,
};

export const CENTRAL_METERED_REFUSED = 'Central nodes cannot enable metered APIs for hive';

export function isPolicyField(field: string): field is PolicyField {
  return Object.prototype.hasOwnProperty.call(POLICY_FIELD_KINDS, field);
}

export function isPeerField(field: string): field is PeerField {
  return Object.prototype.hasOwnProperty.call(PEER_FIELD_KINDS, field);
}

/** Why `value` is not allowed for `field`, or null when it is. */
export function fieldProblem(field: ComputeField, value: unknown): string | null {
  const spec = FIELD_KINDS[field];
  switch (spec.kind) {
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? null : `${field} must be one of ${spec.values.join(', ')}`;
    case 'percent':
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 100
        ? null
        : `${field} must be an integer from 0 to 100`;
    case 'count':
      return Number.isSafeInteger(value) && (value as number) >= 0 ? null : `${field} must be a non-negative integer`;
    case 'amount':
      return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? null : `${field} must be a non-negative number`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${field} must be a boolean`;
  }
}

/** Picks the known fields of `source` that `isField` accepts, in SPEC order; unknown fields are ignored. */
export function pickFields<F extends ComputeField>(source: Record<string, unknown>, isField: (f: string) => f is F): Partial<Record<F, unknown>> {
  const picked: Partial<Record<F, unknown>> = {};
  for (const field of COMPUTE_FIELDS) {
    if (isField(field) && Object.prototype.hasOwnProperty.call(source, field) && source[field] !== undefined) picked[field] = source[field];
  }
  return picked;
}
