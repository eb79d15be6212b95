import { ConfigError } from './config';
import { loadComputeOverrides } from './compute.config';

describe('compute config overrides', () => {
  it('given no SVC_ variables, then nothing is forced', () => {
    expect(loadComputeOverrides({})).toEqual({});
  });

  it('given every field in the environment, then each is parsed to its type', () => {
    expect(
      loadComputeOverrides({
        SVC_COMPUTE_POLICY: 'local_only',
        SVC_HIVE_COMPUTE_POLICY: 'hive_preferred',
        SVC_MAX_HIVE_GPU_PCT: '75',
        SVC_ALLOW_METERED_FOR_HIVE: 'true',
        SVC_METERED_DAILY_LIMIT_USD: '12.5',
        SVC_OFFERED_GPU_HOURS_PER_DAY: '8',
        SVC_ACCEPT_THOUGHT_EXPERIMENTS: 'false',
        SVC_ACCEPT_FRONTIER_TRAINING: 'yes',
        SVC_AUTO_SETTLE: '0',
        SVC_MIN_SETTLEMENT_SPARK: '25',
        SVC_CAUSE_ALIGNMENT: 'frontier_training',
        SVC_ELECTRICITY_RATE_KWH: '0.31',
      }),
    ).toEqual({
      compute_policy: 'local_only',
      hive_compute_policy: 'hive_preferred',
      max_hive_gpu_pct: 75,
      allow_metered_for_hive: true,
      metered_daily_limit_usd: 12.5,
      offered_gpu_hours_per_day: 8,
      accept_thought_experiments: false,
      accept_frontier_training: true,
      auto_settle: false,
      min_settlement_spark: 25,
      cause_alignment: 'frontier_training',
      electricity_rate_kwh: 0.31,
    });
  });

  it.each([
    ['SVC_COMPUTE_POLICY', 'anywhere'],
    ['SVC_MAX_HIVE_GPU_PCT', '101'],
    ['SVC_MAX_HIVE_GPU_PCT', '12.5'],
    ['SVC_MAX_HIVE_GPU_PCT', '-3'],
    ['SVC_ALLOW_METERED_FOR_HIVE', 'maybe'],
    ['SVC_METERED_DAILY_LIMIT_USD', 'ten'],
    ['SVC_MIN_SETTLEMENT_SPARK', '1.5'],
    ['SVC_CAUSE_ALIGNMENT', 'world_peace'],
  ])('given %s=%s, then start fails naming the variable', (variable, value) => {
    expect(() => loadComputeOverrides({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadComputeOverrides({ [variable]: value })).toThrow(new RegExp(variable));
  });

  it('given a central node, when the environment forces metered APIs for the hive, then start fails', () => {
    expect(() => loadComputeOverrides({ SVC_ALLOW_METERED_FOR_HIVE: 'true' }, 'central')).toThrow(/SVC_ALLOW_METERED_FOR_HIVE/);
    expect(loadComputeOverrides({ SVC_ALLOW_METERED_FOR_HIVE: 'false' }, 'central')).toEqual({ allow_metered_for_hive: false });
  });
});
