import { DomainError } from '../shared/domain-error';
import { peerNodeDecider, type PeerNodeEvent } from './peer-node';

const now = new Date('2026-11-22T10:00:00.000Z');
const at = now.toISOString();
const given = (...events: PeerNodeEvent[]) => events.reduce(peerNodeDecider.evolve, peerNodeDecider.initialState);
const cmd = (kind: 'update' | 'join', changes: Record<string, unknown>) => ({ kind, nodeId: 'n1', nodeTier: 'regional', changes }) as const;

describe('peer node record', () => {
  it('given nothing, when peer fields are set, then the change and the full record are recorded; policy fields are ignored', () => {
    expect(peerNodeDecider.decide(cmd('update', { electricity_rate_kwh: 0.12, auto_settle: false }), given(), now)).toEqual([
      {
        type: 'PeerNodeRecordUpdated',
        data: { node_id: 'n1', node_tier: 'regional', changes: { electricity_rate_kwh: 0.12 }, record: { electricity_rate_kwh: 0.12 }, updated_at: at },
      },
    ]);
  });

  it('given a record, when another field changes, then the record carries both', () => {
    const first = peerNodeDecider.decide(cmd('update', { electricity_rate_kwh: 0.12 }), given(), now);
    const [second] = peerNodeDecider.decide(cmd('update', { cause_alignment: 'frontier_training' }), given(...first), now);
    expect(second.data).toMatchObject({ record: { electricity_rate_kwh: 0.12, cause_alignment: 'frontier_training' } });
  });

  it('given nothing, when joining, then the fields and the join are recorded', () => {
    const events = peerNodeDecider.decide(cmd('join', { cause_alignment: 'democratize_compute' }), given(), now);
    expect(events.map((e) => e.type)).toEqual(['PeerNodeRecordUpdated', 'ComputeProviderJoined']);
    expect(events[1].data).toEqual({ node_id: 'n1', node_tier: 'regional', record: { cause_alignment: 'democratize_compute' }, joined_at: at });
  });

  it('given a joined node, when joining again with other values, then nothing is recorded (the open route cannot change a joined node)', () => {
    const joined = peerNodeDecider.decide(cmd('join', { cause_alignment: 'democratize_compute' }), given(), now);
    expect(peerNodeDecider.decide(cmd('join', { cause_alignment: 'frontier_training' }), given(...joined), now)).toEqual([]);
  });

  it('given a bad cause_alignment, when updating, then it is refused', () => {
    expect(() => peerNodeDecider.decide(cmd('update', { cause_alignment: 'world_peace' }), given(), now)).toThrow(DomainError);
    expect(() => peerNodeDecider.decide(cmd('update', { electricity_rate_kwh: -1 }), given(), now)).toThrow(DomainError);
  });
});
