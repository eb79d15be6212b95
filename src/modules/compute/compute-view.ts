/**
 * The read view of a node's compute settings (SPEC §2.4): for each field the
 * environment's value (SVC_<FIELD>) wins, then the stored value, then the
 * default; `sources` says which one each field came from. On a central-tier
 * node allow_metered_for_hive always reads false (source `tier`), whatever was
 * stored before the node became central.
 */
import {
  COMPUTE_DEFAULTS,
  COMPUTE_FIELDS,
  type ComputeField,
  type ComputeSettings,
  type PeerSettings,
  type PolicySettings,
} from '../../aggregates/compute/compute-fields';
import type { ComputeOverrides } from '../../config/compute.config';

export type ValueSource = 'environment' | 'stored' | 'default' | 'tier';

export interface MergedComputeSettings {
  values: ComputeSettings;
  sources: Record<ComputeField, ValueSource>;
}

export function mergeComputeSettings(
  overrides: ComputeOverrides,
  stored: { policy?: Partial<PolicySettings>; peer?: Partial<PeerSettings> },
  nodeTier: string,
): MergedComputeSettings {
  const storedValues: Partial<ComputeSettings> = { ...(stored.policy ?? {}), ...(stored.peer ?? {}) };
  const values: Record<string, unknown> = {};
  const sources: Record<string, ValueSource> = {};
  for (const field of COMPUTE_FIELDS) {
    if (overrides[field] !== undefined) {
      values[field] = overrides[field];
      sources[field] = 'environment';
    } else if (storedValues[field] !== undefined && storedValues[field] !== null) {
      values[field] = storedValues[field];
      sources[field] = 'stored';
    } else {
      values[field] = COMPUTE_DEFAULTS[field];
      sources[field] = 'default';
    }
  }
  if (nodeTier === 'central' && values.allow_metered_for_hive === true) {
    values.allow_metered_for_hive = false;
    sources.allow_metered_for_hive = 'tier';
  }
  return { values: values as unknown as ComputeSettings, sources: sources as Record<ComputeField, ValueSource> };
}

export interface ContributionStats {
  gpu_hours_served: number;
  total_inferences: number;
  energy_kwh_contributed: number;
  metered_api_costs_absorbed: number;
  total_rewards: number;
}

/**
 * contribution.score = 10 per GPU hour served + 1 per 100 inferences + 2 per
 * kWh contributed + 5 per USD of metered API cost absorbed + 1 per reward;
 * breakdown holds each term (2 decimals), score their sum.
 */
export function contribution(stats: ContributionStats): { score: number; breakdown: Record<string, number> } {
  const round = (n: number) => Math.round(n * 100) / 100;
  const breakdown = {
    gpu_hours: round(stats.gpu_hours_served * 10),
    inferences: round(stats.total_inferences / 100),
    energy: round(stats.energy_kwh_contributed * 2),
    metered_costs: round(stats.metered_api_costs_absorbed * 5),
    rewards: round(stats.total_rewards),
  };
  return { score: round(Object.values(breakdown).reduce((a, b) => a + b, 0)), breakdown };
}
