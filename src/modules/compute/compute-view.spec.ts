import { COMPUTE_DEFAULTS, COMPUTE_FIELDS, type ComputeField, isPolicyField } from '../../aggregates/compute/compute-fields';
import { contribution, mergeComputeSettings } from './compute-view';

/** A value for each field that differs from the default and from the other layer's. */
const STORED: Record<ComputeField, unknown> = {
  compute_policy: 'local_only',
  hive_compute_policy: 'hive_preferred',
  max_hive_gpu_pct: 70,
  allow_metered_for_hive: true,
  metered_daily_limit_usd: 5,
  offered_gpu_hours_per_day: 6,
  accept_thought_experiments: false,
  accept_frontier_training: true,
  auto_settle: false,
  min_settlement_spark: 20,
  cause_alignment: 'frontier_training',
  electricity_rate_kwh: 0.2,
};
const ENV: Record<ComputeField, unknown> = {
  compute_policy: 'cloud_allowed',
  hive_compute_policy: 'local_only',
  max_hive_gpu_pct: 10,
  allow_metered_for_hive: false,
  metered_daily_limit_usd: 9,
  offered_gpu_hours_per_day: 1,
  accept_thought_experiments: false,
  accept_frontier_training: false,
  auto_settle: false,
  min_settlement_spark: 99,
  cause_alignment: 'open_research',
  electricity_rate_kwh: 0.5,
};

function storedOf(field: ComputeField) {
  return isPolicyField(field) ? { policy: { [field]: STORED[field] } } : { peer: { [field]: STORED[field] } };
}

describe('compute settings read view', () => {
  it('given nothing, then every field is its default', () => {
    const merged = mergeComputeSettings({}, {}, 'flat');
    expect(merged.values).toEqual(COMPUTE_DEFAULTS);
    expect(new Set(Object.values(merged.sources))).toEqual(new Set(['default']));
  });

  describe.each(COMPUTE_FIELDS)('%s', (field) => {
    it('stored wins over the default', () => {
      const merged = mergeComputeSettings({}, storedOf(field), 'flat');
      expect(merged.values[field]).toEqual(STORED[field]);
      expect(merged.sources[field]).toBe('stored');
    });

    it('the environment wins over stored and default', () => {
      const merged = mergeComputeSettings({ [field]: ENV[field] }, storedOf(field), 'flat');
      expect(merged.values[field]).toEqual(ENV[field]);
      expect(merged.sources[field]).toBe('environment');
    });

    it('other fields stay at their default', () => {
      const merged = mergeComputeSettings({ [field]: ENV[field] }, storedOf(field), 'flat');
      for (const other of COMPUTE_FIELDS.filter((f) => f !== field)) {
        expect(merged.values[other]).toEqual(COMPUTE_DEFAULTS[other]);
        expect(merged.sources[other]).toBe('default');
      }
    });
  });

  it('given a central node with metered-for-hive stored true, then it reads false from the tier', () => {
    const merged = mergeComputeSettings({}, { policy: { allow_metered_for_hive: true } }, 'central');
    expect(merged.values.allow_metered_for_hive).toBe(false);
    expect(merged.sources.allow_metered_for_hive).toBe('tier');
  });
});

describe('contribution score', () => {
  it('weighs each served figure and sums the terms', () => {
    expect(
      contribution({ gpu_hours_served: 1.5, total_inferences: 250, energy_kwh_contributed: 2, metered_api_costs_absorbed: 0.1, total_rewards: 3 }),
    ).toEqual({ score: 25, breakdown: { gpu_hours: 15, inferences: 2.5, energy: 4, metered_costs: 0.5, rewards: 3 } });
  });
});
