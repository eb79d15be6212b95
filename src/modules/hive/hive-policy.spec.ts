import { COMPUTE_DEFAULTS } from '../../aggregates/compute/compute-fields';
import { hiveRefusal, takesHiveWork } from './hive-policy';

describe('hive policy', () => {
  it('takes hive work by default, not with hive_compute_policy local_only nor with max_hive_gpu_pct 0', () => {
    expect(takesHiveWork(COMPUTE_DEFAULTS)).toBe(true);
    expect(takesHiveWork({ hive_compute_policy: 'hive_preferred', max_hive_gpu_pct: 1 })).toBe(true);
    expect(hiveRefusal({ hive_compute_policy: 'local_only', max_hive_gpu_pct: 50 })).toBe('hive_compute_policy is local_only');
    expect(hiveRefusal({ hive_compute_policy: 'local_preferred', max_hive_gpu_pct: 0 })).toBe('max_hive_gpu_pct is 0');
  });
});
