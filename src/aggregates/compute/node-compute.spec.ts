import { deciderKit } from '../../../test/support/decider-kit';
import { CENTRAL_METERED_REFUSED, COMPUTE_DEFAULTS, fieldProblem } from './compute-fields';
import { type NodeComputeCommand, nodeComputeDecider, type NodeComputeEvent, type NodeTierName } from './node-compute';

const now = new Date('2026-11-22T10:00:00.000Z');
const { given } = deciderKit(nodeComputeDecider, now);

const updated = (changes: Record<string, unknown>, tier: NodeTierName = 'flat'): NodeComputeEvent => ({
  type: 'NodeComputeConfigUpdated',
  data: { node_id: 'n1', node_tier: tier, changes, updated_at: now.toISOString() },
});
const update = (changes: Record<string, unknown>, nodeTier: NodeTierName = 'flat'): NodeComputeCommand => ({ kind: 'update', nodeId: 'n1', nodeTier, changes });

describe('node compute config', () => {
  it('given nothing, when policy fields are set, then only those (and no peer or unknown field) are recorded', () =>
    given()
      .when(update({ compute_policy: 'local_only', max_hive_gpu_pct: 80, cause_alignment: 'frontier_training', bogus: 1 }))
      .then(updated({ compute_policy: 'local_only', max_hive_gpu_pct: 80 })));

  it('given a stored value, when the same value is sent again, then nothing is recorded', () =>
    given(updated({ auto_settle: false })).when(update({ auto_settle: false })).thenNothing());

  it('given nothing stored, when a field is set to its default, then it is recorded (it now reads as stored)', () =>
    given()
      .when(update({ max_hive_gpu_pct: COMPUTE_DEFAULTS.max_hive_gpu_pct }))
      .then(updated({ max_hive_gpu_pct: COMPUTE_DEFAULTS.max_hive_gpu_pct })));

  it('given a central node, when enabling metered APIs for the hive, then it is refused', () =>
    given().when(update({ allow_metered_for_hive: true }, 'central')).thenRefused('forbidden', CENTRAL_METERED_REFUSED));

  it('given a central node, when disabling metered APIs for the hive, then it is recorded', () =>
    given()
      .when(update({ allow_metered_for_hive: false }, 'central'))
      .then(updated({ allow_metered_for_hive: false }, 'central')));

  it('given a regional node, when enabling metered APIs for the hive, then it is recorded', () =>
    given()
      .when(update({ allow_metered_for_hive: true }, 'regional'))
      .then(updated({ allow_metered_for_hive: true }, 'regional')));

  it.each([
    ['compute_policy', 'everywhere'],
    ['hive_compute_policy', 7],
    ['max_hive_gpu_pct', 101],
    ['max_hive_gpu_pct', 50.5],
    ['max_hive_gpu_pct', -1],
    ['max_hive_gpu_pct', '50'],
    ['allow_metered_for_hive', 'true'],
    ['metered_daily_limit_usd', -0.01],
    ['offered_gpu_hours_per_day', null],
    ['accept_thought_experiments', 1],
    ['min_settlement_spark', 2.5],
  ])('given nothing, when updating with a bad %s (%p), then the whole command is refused as invalid', (field, value) =>
    given()
      .when(update({ compute_policy: 'local_only', [field]: value }))
      .thenRefused('invalid', new RegExp(`^${field} must be `)));

  it('accepts every default as a valid value', () => {
    for (const [field, value] of Object.entries(COMPUTE_DEFAULTS)) expect(fieldProblem(field as never, value)).toBeNull();
  });
});
