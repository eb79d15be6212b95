/**
 * Provisioned node records (social-routes §18, /api/provision), one stream
 * `provisioning-registry` (records get whole-number ids in order, so every
 * record is decided against the one count; concurrent deploys serialise on
 * its revision and never share an id).
 *
 * This service never runs a command on another machine: a deploy records
 * the request and the plan (each step an argument array, never a shell
 * string built from request text) for an operator or an external runner to
 * carry out; an update records a plan too; a delete marks the record
 * decommissioned (nothing is uninstalled). docs/security.md, "Fleet".
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever, DomainError } from '../shared/domain-error';

export const provisioningStreamId = (): string => 'provisioning-registry';

export interface PlanStep {
  step: string;
  /** the program and its arguments, one element each: run without a shell */
  argv: string[];
}

export interface DeployRequest {
  target_host: string;
  ssh_user: string;
  ssh_key_path: string | null;
  join_peer: string | null;
  backend_port: number;
  no_vision: boolean;
  no_llm: boolean;
}

export type ProvisionedNodeRecorded = DomainEvent<
  'ProvisionedNodeRecorded',
  DeployRequest & { id: number; provisioned_by: string; plan: PlanStep[]; recorded_at: string }
>;
export type ProvisionedNodeUpdatePlanned = DomainEvent<'ProvisionedNodeUpdatePlanned', { id: number; planned_by: string; plan: PlanStep[]; planned_at: string }>;
export type ProvisionedNodeDecommissioned = DomainEvent<'ProvisionedNodeDecommissioned', { id: number; decommissioned_by: string; decommissioned_at: string }>;
export type ProvisioningEvent = ProvisionedNodeRecorded | ProvisionedNodeUpdatePlanned | ProvisionedNodeDecommissioned;

export interface ProvisioningState {
  lastId: number;
  /** id → status */
  nodes: Record<number, 'planned' | 'decommissioned'>;
  requests: Record<number, DeployRequest>;
}

export type ProvisioningCommand =
  | { kind: 'record'; request: DeployRequest; by: string }
  | { kind: 'planUpdate'; id: number; by: string }
  | { kind: 'decommission'; id: number; by: string };

export const PROVISIONED_NODE_NOT_FOUND = 'Node not found';

/** The deploy plan: install over ssh, as argument arrays (nothing here runs them). */
export function deployPlan(r: DeployRequest): PlanStep[] {
  const ssh = ['ssh', ...(r.ssh_key_path ? ['-i', r.ssh_key_path] : []), '-o', 'BatchMode=yes', '--', `${r.ssh_user}@${r.target_host}`];
  const flags = [`--port=${r.backend_port}`, ...(r.no_vision ? ['--no-vision'] : []), ...(r.no_llm ? ['--no-llm'] : []), ...(r.join_peer ? [`--join-peer=${r.join_peer}`] : [])];
  return [
    { step: 'check the host answers over ssh', argv: [...ssh, 'true'] },
    { step: 'install the node service', argv: [...ssh, 'svc-node-install', ...flags] },
    { step: 'start the node service', argv: [...ssh, 'systemctl', 'start', 'svc-node'] },
  ];
}

export function updatePlan(r: DeployRequest): PlanStep[] {
  const ssh = ['ssh', ...(r.ssh_key_path ? ['-i', r.ssh_key_path] : []), '-o', 'BatchMode=yes', '--', `${r.ssh_user}@${r.target_host}`];
  return [
    { step: 'update the node service', argv: [...ssh, 'svc-node-install', '--update'] },
    { step: 'restart the node service', argv: [...ssh, 'systemctl', 'restart', 'svc-node'] },
  ];
}

export const provisioningDecider: Decider<ProvisioningState, ProvisioningCommand, ProvisioningEvent> = {
  initialState: { lastId: 0, nodes: {}, requests: {} },
  evolve(state, event) {
    switch (event.type) {
      case 'ProvisionedNodeRecorded': {
        const { id, provisioned_by: _by, plan: _plan, recorded_at: _at, ...request } = event.data;
        return { lastId: Math.max(state.lastId, id), nodes: { ...state.nodes, [id]: 'planned' }, requests: { ...state.requests, [id]: request } };
      }
      case 'ProvisionedNodeUpdatePlanned':
        return state;
      case 'ProvisionedNodeDecommissioned':
        return { ...state, nodes: { ...state.nodes, [event.data.id]: 'decommissioned' } };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'record': {
        const id = state.lastId + 1;
        return [{ type: 'ProvisionedNodeRecorded', data: { ...command.request, id, provisioned_by: command.by, plan: deployPlan(command.request), recorded_at: at } }];
      }
      case 'planUpdate': {
        const request = state.requests[command.id];
        if (!request) throw new DomainError('not_found', PROVISIONED_NODE_NOT_FOUND);
        if (state.nodes[command.id] === 'decommissioned') throw new DomainError('invalid', 'Node is decommissioned');
        return [{ type: 'ProvisionedNodeUpdatePlanned', data: { id: command.id, planned_by: command.by, plan: updatePlan(request), planned_at: at } }];
      }
      case 'decommission': {
        const status = state.nodes[command.id];
        if (!status) throw new DomainError('not_found', PROVISIONED_NODE_NOT_FOUND);
        if (status === 'decommissioned') return [];
        return [{ type: 'ProvisionedNodeDecommissioned', data: { id: command.id, decommissioned_by: command.by, decommissioned_at: at } }];
      }
      default:
        return assertNever(command);
    }
  },
};
