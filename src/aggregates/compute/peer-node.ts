/**
 * The peer node record of one node (stream `peerNode-<nodeId>`): what this
 * node tells its peers about itself (cause_alignment, electricity_rate_kwh),
 * and whether it joined as a compute provider. Its events are gossiped to the
 * other nodes over the bus (src/sagas/peer-gossip.relay.ts).
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';
import { PEER_FIELDS, type PeerField, type PeerSettings, fieldProblem } from './compute-fields';
import type { NodeTierName } from './node-compute';

export type PeerNodeEvent =
  | {
      type: 'PeerNodeRecordUpdated';
      data: {
        node_id: string;
        node_tier: NodeTierName;
        changes: Partial<PeerSettings>;
        /** every stored peer field after this change */
        record: Partial<PeerSettings>;
        updated_at: string;
      };
    }
  | {
      type: 'ComputeProviderJoined';
      data: { node_id: string; node_tier: NodeTierName; record: Partial<PeerSettings>; joined_at: string };
    };

export interface PeerNodeState {
  /** every stored peer field (the stream id names the node) */
  record: Partial<PeerSettings>;
  joined: boolean;
}

export type PeerNodeCommand =
  | { kind: 'update'; nodeId: string; nodeTier: NodeTierName; changes: Record<string, unknown> }
  /**
   * join as a compute provider: records the given peer fields, then the join.
   * Only the first join records anything: the route is open to any caller, so
   * a later join must not change a joined node's settings (PUT does that).
   */
  | { kind: 'join'; nodeId: string; nodeTier: NodeTierName; changes: Record<string, unknown> };

export function peerNodeStreamId(nodeId: string): string {
  return `peerNode-${nodeId}`;
}

export function validPeerChanges(changes: Record<string, unknown>): Partial<PeerSettings> {
  const valid: Record<string, unknown> = {};
  for (const field of PEER_FIELDS) {
    if (!(field in changes) || changes[field] === undefined) continue;
    const problem = fieldProblem(field, changes[field]);
    if (problem) throw new DomainError('invalid', problem);
    valid[field] = changes[field];
  }
  return valid as Partial<PeerSettings>;
}

function recordUpdate(command: PeerNodeCommand, state: PeerNodeState, now: Date): PeerNodeEvent[] {
  const valid = validPeerChanges(command.changes);
  const changes = Object.fromEntries(
    (Object.keys(valid) as PeerField[]).filter((f) => !(f in state.record) || state.record[f] !== valid[f]).map((f) => [f, valid[f]]),
  ) as Partial<PeerSettings>;
  if (Object.keys(changes).length === 0) return [];
  return [
    {
      type: 'PeerNodeRecordUpdated',
      data: {
        node_id: command.nodeId,
        node_tier: command.nodeTier,
        changes,
        record: { ...state.record, ...changes },
        updated_at: now.toISOString(),
      },
    },
  ];
}

export const peerNodeDecider: Decider<PeerNodeState, PeerNodeCommand, PeerNodeEvent> = {
  initialState: { record: {}, joined: false },
  evolve(state, event) {
    switch (event.type) {
      case 'PeerNodeRecordUpdated':
        return { ...state, record: { ...event.data.record } };
      case 'ComputeProviderJoined':
        return { ...state, joined: true };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'update':
        return recordUpdate(command, state, now);
      case 'join': {
        if (state.joined) return [];
        const updates = recordUpdate(command, state, now);
        const record = updates.reduce(peerNodeDecider.evolve, state).record;
        return [
          ...updates,
          { type: 'ComputeProviderJoined', data: { node_id: command.nodeId, node_tier: command.nodeTier, record, joined_at: now.toISOString() } },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};

