import { DomainError } from '../shared/domain-error';
import { CENTRAL_METERED_REFUSED, COMPUTE_DEFAULTS, fieldProblem } from './compute-fields';
import { nodeComputeDecider, type NodeComputeEvent } from './node-compute';

const now = new Date('2026-11-22T10:00:00.000Z');
const given = (...events: NodeComputeEvent[]) => events.reduce(nodeComputeDecider.evolve, nodeComputeDecider.initialState);
const updated = (changes: Record<string, unknown>, tier: 'flat' | 'regional' | 'central' = 'flat'): NodeComputeEvent => ({
  type: 'NodeComputeConfigUpdated',
  data: { node_id: 'n1', node_tier: tier, changes, updated_at: now.toISOString() },
});
const update = (changes: Record<string, unknown>, nodeTier: 'flat' | 'regional' | 'central' = 'flat') =>
  ({ kind: 'update', nodeId: 'n1', nodeTier, changes }) as const;

describe('node compute config', () => {
  it('given nothing, when policy fields are set, then only those (and no peer or unknown field) are recorded', () => {
    const events = nodeComputeDecider.decide(
      update({ compute_policy: 'local_only', max_hive_gpu_pct: 80, cause_alignment: 'frontier_training', bogus: 1 }),
      given(),
      now,
    );
    expect(events).toEqual([updated({ compute_policy: 'local_only', max_hive_gpu_pct: 80 })]);
  });

  it('given a stored value, when the same value is sent again, then nothing is recorded', () => {
    expect(nodeComputeDecider.decide(update({ auto_settle: false }), given(updated({ auto_settle: false })), now)).toEqual([]);
  });

  it('given nothing stored, when a field is set to its default, then it is recorded (it now reads as stored)', () => {
    expect(nodeComputeDecider.decide(update({ max_hive_gpu_pct: COMPUTE_DEFAULTS.max_hive_gpu_pct }), given(), now)).toHaveLength(1);
  });

  it('given a central node, when enabling metered APIs for the hive, then it is refused', () => {
    expect(() => nodeComputeDecider.decide(update({ allow_metered_for_hive: true }, 'central'), given(), now)).toThrow(
      new DomainError('forbidden', CENTRAL_METERED_REFUSED),
    );
  });

  it('given a central node, when disabling metered APIs for the hive, then it is recorded', () => {
    expect(nodeComputeDecider.decide(update({ allow_metered_for_hive: false }, 'central'), given(), now)).toHaveLength(1);
  });

  it('given a regional node, when enabling metered APIs for the hive, then it is recorded', () => {
    expect(nodeComputeDecider.decide(update({ allow_metered_for_hive: true }, 'regional'), given(), now)).toEqual([
      updated({ allow_metered_for_hive: true }, 'regional'),
    ]);
  });

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
  ])('given a bad %s (%p), when updating, then the whole command is refused', (field, value) => {
    expect(() => nodeComputeDecider.decide(update({ compute_policy: 'local_only', [field]: value }), given(), now)).toThrow(DomainError);
  });

  it('accepts every default as a valid value', () => {
    for (const [field, value] of Object.entries(COMPUTE_DEFAULTS)) expect(fieldProblem(field as never, value)).toBeNull();
  });
});
