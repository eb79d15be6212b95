import { deciderKit } from '../../../test/support/decider-kit';
import type { PeerSettings } from './compute-fields';
import { type PeerNodeCommand, peerNodeDecider, type PeerNodeEvent } from './peer-node';

const now = new Date('2026-11-22T10:00:00.000Z');
const at = now.toISOString();
const { given } = deciderKit(peerNodeDecider, now);

const cmd = (kind: 'update' | 'join', changes: Record<string, unknown>): PeerNodeCommand => ({ kind, nodeId: 'n1', nodeTier: 'regional', changes });
const recordUpdated = (changes: Partial<PeerSettings>, record: Partial<PeerSettings> = changes): PeerNodeEvent => ({
  type: 'PeerNodeRecordUpdated',
  data: { node_id: 'n1', node_tier: 'regional', changes, record, updated_at: at },
});
const providerJoined = (record: Partial<PeerSettings>): PeerNodeEvent => ({
  type: 'ComputeProviderJoined',
  data: { node_id: 'n1', node_tier: 'regional', record, joined_at: at },
});

describe('peer node record', () => {
  it('given nothing, when peer fields are set, then the change and the full record are recorded; policy fields are ignored', () =>
    given()
      .when(cmd('update', { electricity_rate_kwh: 0.12, auto_settle: false }))
      .then(recordUpdated({ electricity_rate_kwh: 0.12 })));

  it('given a record, when another field changes, then the record carries both', () =>
    given(recordUpdated({ electricity_rate_kwh: 0.12 }))
      .when(cmd('update', { cause_alignment: 'frontier_training' }))
      .then(recordUpdated({ cause_alignment: 'frontier_training' }, { electricity_rate_kwh: 0.12, cause_alignment: 'frontier_training' })));

  it('given nothing, when joining, then the fields and the join are recorded', () =>
    given()
      .when(cmd('join', { cause_alignment: 'democratize_compute' }))
      .then(recordUpdated({ cause_alignment: 'democratize_compute' }), providerJoined({ cause_alignment: 'democratize_compute' })));

  it('given a joined node, when joining again with other values, then nothing is recorded (the open route cannot change a joined node)', () =>
    given(recordUpdated({ cause_alignment: 'democratize_compute' }), providerJoined({ cause_alignment: 'democratize_compute' }))
      .when(cmd('join', { cause_alignment: 'frontier_training' }))
      .thenNothing());

  it.each([
    [{ cause_alignment: 'world_peace' }, /^cause_alignment must be one of /],
    [{ electricity_rate_kwh: -1 }, 'electricity_rate_kwh must be a non-negative number'],
  ])('given nothing, when updating with %p, then it is refused as invalid', (changes, message) =>
    given().when(cmd('update', changes)).thenRefused('invalid', message));
});
