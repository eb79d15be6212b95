/**
 * The node compute config of one node (stream `nodeCompute-<nodeId>`): the
 * policy fields of SPEC §2.4 that stay on the node. Only values an operator
 * set are recorded; the read view fills the rest from the environment and the
 * defaults. A central-tier node refuses to enable metered APIs for the hive.
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';
import {
  CENTRAL_METERED_REFUSED,
  POLICY_FIELDS,
  type PolicyField,
  type PolicySettings,
  fieldProblem,
} from './compute-fields';

export type NodeTierName = 'flat' | 'regional' | 'central';

export type NodeComputeEvent = {
  type: 'NodeComputeConfigUpdated';
  data: { node_id: string; node_tier: NodeTierName; changes: Partial<PolicySettings>; updated_at: string };
};

export interface NodeComputeState {
  /** the policy fields an operator set, by field (the stream id names the node) */
  stored: Partial<PolicySettings>;
}

export type NodeComputeCommand = {
  kind: 'update';
  nodeId: string;
  nodeTier: NodeTierName;
  /** unknown fields are ignored; every known one is validated */
  changes: Record<string, unknown>;
};

export function nodeComputeStreamId(nodeId: string): string {
  return `nodeCompute-${nodeId}`;
}

/** The validated known policy fields of `changes`; the first bad value refuses the whole command. */
export function validPolicyChanges(changes: Record<string, unknown>): Partial<PolicySettings> {
  const valid: Record<string, unknown> = {};
  for (const field of POLICY_FIELDS) {
    if (!(field in changes) || changes[field] === undefined) continue;
    const problem = fieldProblem(field, changes[field]);
    if (problem) throw new DomainError('invalid', problem);
    valid[field] = changes[field];
  }
  return valid as Partial<PolicySettings>;
}

export const nodeComputeDecider: Decider<NodeComputeState, NodeComputeCommand, NodeComputeEvent> = {
  initialState: { stored: {} },
  evolve(state, event) {
    switch (event.type) {
      case 'NodeComputeConfigUpdated':
        return { stored: { ...state.stored, ...event.data.changes } };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'update': {
        const valid = validPolicyChanges(command.changes);
        if (command.nodeTier === 'central' && valid.allow_metered_for_hive === true) {
          throw new DomainError('forbidden', CENTRAL_METERED_REFUSED);
        }
        // Record a field when it was never stored (so it now reads as "stored") or its value changes.
        const changes = Object.fromEntries(
          (Object.keys(valid) as PolicyField[])
            .filter((f) => !(f in state.stored) || state.stored[f] !== valid[f])
            .map((f) => [f, valid[f]]),
        ) as Partial<PolicySettings>;
        if (Object.keys(changes).length === 0) return [];
        return [
          {
            type: 'NodeComputeConfigUpdated',
            data: { node_id: command.nodeId, node_tier: command.nodeTier, changes, updated_at: now.toISOString() },
          },
        ];
      }
      default:
        return assertNever(command.kind);
    }
  },
};
