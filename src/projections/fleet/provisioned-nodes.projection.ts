/**
 * `provisionedNodes`: the deploy records of /api/provision (social-routes
 * §18), `provisioned_nodes`, `_id` the record's whole-number id as text:
 * the request, the plan (nothing here runs it), the status (`planned`, then
 * `decommissioned`).
 */
import type { PlanStep } from '../../aggregates/fleet/provisioning';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const PROVISIONED_NODES = 'provisioned_nodes';

export interface ProvisionedNodeDoc extends Doc {
  id: number;
  target_host: string;
  ssh_user: string;
  ssh_key_path: string | null;
  join_peer: string | null;
  backend_port: number;
  no_vision: boolean;
  no_llm: boolean;
  node_id: string | null;
  capability_tier: string | null;
  status: 'planned' | 'decommissioned';
  installed_version: string | null;
  provisioned_at: string;
  last_health_check: string | null;
  provisioned_by: string;
  error_message: string | null;
  plan: PlanStep[];
  update_plan: PlanStep[] | null;
  update_planned_at: string | null;
  decommissioned_at: string | null;
}

export const provisionedNodesProjection = defineProjection({
  name: 'provisionedNodes',
  version: 1,
  collections: [PROVISIONED_NODES],
  indexes: [{ collection: PROVISIONED_NODES, spec: { keys: { id: 1 } } }],
  on: {
    ProvisionedNodeRecorded: (event, writer) => {
      const d = event.data;
      applyOnce(writer, PROVISIONED_NODES, String(d.id), event, {
        $set: {
          id: d.id,
          target_host: d.target_host,
          ssh_user: d.ssh_user,
          ssh_key_path: d.ssh_key_path,
          join_peer: d.join_peer,
          backend_port: d.backend_port,
          no_vision: d.no_vision,
          no_llm: d.no_llm,
          node_id: null,
          capability_tier: null,
          status: 'planned',
          installed_version: null,
          provisioned_at: d.recorded_at,
          last_health_check: null,
          provisioned_by: d.provisioned_by,
          error_message: null,
          plan: d.plan,
          update_plan: null,
          update_planned_at: null,
          decommissioned_at: null,
        },
      });
    },
    ProvisionedNodeUpdatePlanned: (event, writer) => {
      const d = event.data;
      applyOnce(writer, PROVISIONED_NODES, String(d.id), event, { $set: { update_plan: d.plan, update_planned_at: d.planned_at } }, { upsert: false });
    },
    ProvisionedNodeDecommissioned: (event, writer) => {
      const d = event.data;
      applyOnce(writer, PROVISIONED_NODES, String(d.id), event, { $set: { status: 'decommissioned', decommissioned_at: d.decommissioned_at } }, { upsert: false });
    },
  },
});
