/**
 * `fleetNodes`: the hierarchy as central knows it (social-routes §18).
 * `fleet_nodes`, `_id` the node id: tier, key, region, last reported
 * capacity, when it was last heard from (a registration, a capacity report,
 * its own region switch). `fleet_commands`, `_id` the command id: the
 * command records queued by promote and demote (status `queued` until a
 * node drains them).
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const FLEET_NODES = 'fleet_nodes';
export const FLEET_COMMANDS = 'fleet_commands';

export interface FleetNodeDoc extends Doc {
  tier: string;
  public_key: string | null;
  region_id: string | null;
  region_name: string | null;
  has_certificate: boolean;
  compute_info: Record<string, unknown>;
  geo_info: Record<string, unknown>;
  registered_at: string;
  last_seen_at: string;
  assigned_at: string | null;
  promoted_at: string | null;
  demoted_at: string | null;
  upgraded_at: string | null;
}

export interface FleetCommandDoc extends Doc {
  target_node_id: string;
  cmd_type: string;
  params: Record<string, unknown>;
  issued_by: string;
  signature: string | null;
  status: 'queued' | 'delivered' | 'completed' | 'failed';
  result_message: string | null;
  created_at: string;
  delivered_at: string | null;
  completed_at: string | null;
}

const fresh = (at: string) => ({
  tier: 'flat',
  public_key: null,
  region_id: null,
  region_name: null,
  has_certificate: false,
  compute_info: {},
  geo_info: {},
  registered_at: at,
  assigned_at: null,
  promoted_at: null,
  demoted_at: null,
  upgraded_at: null,
});
/** the fields of a new document not in `set` */
const onInsert = (at: string, set: Record<string, unknown>) => Object.fromEntries(Object.entries({ ...fresh(at), last_seen_at: at }).filter(([k]) => !(k in set)));

export const fleetNodesProjection = defineProjection({
  name: 'fleetNodes',
  version: 1,
  collections: [FLEET_NODES, FLEET_COMMANDS],
  indexes: [
    { collection: FLEET_NODES, spec: { keys: { tier: 1, last_seen_at: -1 } } },
    { collection: FLEET_NODES, spec: { keys: { region_id: 1 } } },
    { collection: FLEET_COMMANDS, spec: { keys: { target_node_id: 1, created_at: 1 } } },
  ],
  on: {
    FleetNodeRegistered: (event, writer) => {
      const d = event.data;
      const set = {
        tier: d.tier,
        public_key: d.public_key,
        region_name: d.region_name,
        has_certificate: d.certificate !== null,
        compute_info: d.compute_info,
        geo_info: d.geo_info,
        last_seen_at: d.registered_at,
      };
      applyOnce(writer, FLEET_NODES, d.node_id, event, { $set: set, $setOnInsert: onInsert(d.registered_at, set) });
    },
    FleetNodeRegionAssigned: (event, writer) => {
      const d = event.data;
      const set = { region_id: d.region_id, assigned_at: d.assigned_at, ...(d.reason === 'switch' ? { last_seen_at: d.assigned_at } : {}) };
      applyOnce(writer, FLEET_NODES, d.node_id, event, { $set: set }, { upsert: false });
    },
    FleetNodeCapacityReported: (event, writer) => {
      const d = event.data;
      applyOnce(writer, FLEET_NODES, d.node_id, event, { $set: { compute_info: d.compute_info, last_seen_at: d.reported_at } }, { upsert: false });
    },
    FleetNodePromoted: (event, writer) => {
      const d = event.data;
      applyOnce(writer, FLEET_NODES, d.node_id, event, { $set: { tier: 'regional', region_name: d.region_name, promoted_at: d.promoted_at } }, { upsert: false });
    },
    FleetNodeDemoted: (event, writer) => {
      const d = event.data;
      applyOnce(writer, FLEET_NODES, d.node_id, event, { $set: { tier: 'flat', has_certificate: false, demoted_at: d.demoted_at } }, { upsert: false });
    },
    NodeTierUpgraded: (event, writer) => {
      const d = event.data;
      const set = { tier: 'central', upgraded_at: d.upgraded_at, last_seen_at: d.upgraded_at };
      applyOnce(writer, FLEET_NODES, d.node_id, event, { $set: set, $setOnInsert: onInsert(d.upgraded_at, set) });
    },
    FleetCommandQueued: (event, writer) => {
      const { command_id, ...record } = event.data;
      applyOnce(writer, FLEET_COMMANDS, command_id, event, { $set: { ...record, status: 'queued', result_message: null, delivered_at: null, completed_at: null } });
    },
  },
});
