/**
 * The fleet's reads (social-routes §18): this node's effective tier (its
 * configured tier, or central once verify-upgrade moved it), the inventory,
 * regions and their health, assignments, region candidates, and the
 * provision records. Read models only (`fleetNodes`, `provisionedNodes`,
 * `nodeStandings`).
 */
import { Inject, Injectable } from '@nestjs/common';
import type { FleetTier } from '../../aggregates/fleet/fleet-node';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { FLEET_NODES, type FleetNodeDoc } from '../../projections/fleet/fleet-nodes.projection';
import { PROVISIONED_NODES, type ProvisionedNodeDoc } from '../../projections/fleet/provisioned-nodes.projection';
import { NODE_STANDINGS, type NodeStandingDoc } from '../../projections/integrity/node-standings.projection';
import { computeUnits } from '../integrity/audit-coverage';
import type { RegionCandidate } from './region-choice';

/** A node not heard from in this long is stale; in a day, dead (left out of the inventory). */
export const STALE_AFTER_MS = 10 * 60 * 1000;
export const DEAD_AFTER_MS = 24 * 60 * 60 * 1000;

export interface FleetNodeView {
  node_id: string;
  tier: string;
  region_id: string | null;
  region_name: string | null;
  has_certificate: boolean;
  compute_info: Record<string, unknown>;
  registered_at: string;
  last_seen_at: string;
  status: 'active' | 'stale';
}

export interface RegionView {
  region_id: string;
  region_name: string | null;
  node_id: string;
  status: 'active' | 'stale';
  local_count: number;
  compute_info: Record<string, unknown>;
  last_seen_at: string;
}

@Injectable()
export class FleetQueries {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly clock: Clock,
  ) {}

  private nodes() {
    return this.readStore.collection<FleetNodeDoc>(FLEET_NODES);
  }

  private age(doc: { last_seen_at: string }): number {
    return this.clock.now().getTime() - Date.parse(doc.last_seen_at);
  }

  private view(doc: FleetNodeDoc): FleetNodeView {
    return {
      node_id: doc._id,
      tier: doc.tier,
      region_id: doc.region_id,
      region_name: doc.region_name,
      has_certificate: doc.has_certificate,
      compute_info: doc.compute_info,
      registered_at: doc.registered_at,
      last_seen_at: doc.last_seen_at,
      status: this.age(doc) > STALE_AFTER_MS ? 'stale' : 'active',
    };
  }

  /** This node's tier: central once upgraded, else SVC_NODE_TIER. */
  async effectiveTier(): Promise<{ tier: FleetTier; upgraded_at: string | null }> {
    const self = await this.nodes().findOne({ _id: this.config.nodeId });
    if (self?.upgraded_at) return { tier: 'central', upgraded_at: self.upgraded_at };
    return { tier: this.config.nodeTier, upgraded_at: null };
  }

  async node(nodeId: string): Promise<FleetNodeDoc | null> {
    return this.nodes().findOne({ _id: nodeId });
  }

  async inventory() {
    const docs = await this.nodes().find({}, { sort: { _id: 1 }, limit: 100_000 });
    const alive = docs.filter((d) => this.age(d) <= DEAD_AFTER_MS && d._id !== this.config.nodeId).map((d) => this.view(d));
    const { tier } = await this.effectiveTier();
    alive.push({
      node_id: this.config.nodeId,
      tier,
      region_id: null,
      region_name: null,
      has_certificate: false,
      compute_info: {},
      registered_at: this.clock.now().toISOString(),
      last_seen_at: this.clock.now().toISOString(),
      status: 'active',
    });
    const inventory: Record<string, FleetNodeView[]> = { central: [], regional: [], flat: [], local: [] };
    for (const n of alive) (inventory[n.tier] ??= []).push(n);
    const active = alive.filter((n) => n.status === 'active').length;
    return {
      success: true as const,
      counts: { central: inventory.central.length, regional: inventory.regional.length, flat: inventory.flat.length, local: inventory.local.length, total: alive.length, active, stale: alive.length - active },
      inventory,
    };
  }

  async regions(): Promise<RegionView[]> {
    const [regionals, locals, banned] = await Promise.all([
      this.nodes().find({ tier: 'regional' }, { sort: { _id: 1 }, limit: 10_000 }),
      this.nodes().find({ tier: 'local', region_id: { $ne: null } }, { projection: { _id: 1, region_id: 1 }, limit: 100_000 }),
      this.readStore.collection<NodeStandingDoc>(NODE_STANDINGS).find({ banned: true }, { projection: { _id: 1 } }),
    ]);
    const out = new Set(banned.map((b) => b._id));
    const counts = new Map<string, number>();
    for (const l of locals) if (l.region_id) counts.set(l.region_id, (counts.get(l.region_id) ?? 0) + 1);
    return regionals
      .filter((r) => !out.has(r._id) && this.age(r) <= DEAD_AFTER_MS)
      .map((r) => ({
        region_id: r._id,
        region_name: r.region_name,
        node_id: r._id,
        status: this.age(r) > STALE_AFTER_MS ? ('stale' as const) : ('active' as const),
        local_count: counts.get(r._id) ?? 0,
        compute_info: r.compute_info,
        last_seen_at: r.last_seen_at,
      }));
  }

  async regionCandidates(): Promise<(RegionCandidate & { status: string })[]> {
    const [regions, docs] = await Promise.all([this.regions(), this.nodes().find({ tier: 'regional' }, { projection: { _id: 1, geo_info: 1 }, limit: 10_000 })]);
    const geo = new Map(docs.map((d) => [d._id, d.geo_info ?? {}]));
    return regions.map((r) => ({ region_id: r.region_id, geo_info: geo.get(r.region_id) ?? {}, local_count: r.local_count, status: r.status }));
  }

  async regionHealth(regionId: string) {
    const region = (await this.regions()).find((r) => r.region_id === regionId);
    if (!region) return null;
    const locals = await this.nodes().find({ tier: 'local', region_id: regionId }, { limit: 100_000 });
    const stale = locals.filter((l) => this.age(l) > STALE_AFTER_MS).length;
    const seconds = Math.max(0, Math.round(this.age(region) / 1000));
    return {
      success: true as const,
      region_id: region.region_id,
      region_name: region.region_name,
      status: region.status === 'active' ? 'healthy' : 'stale',
      last_seen_at: region.last_seen_at,
      seconds_since_seen: seconds,
      local_nodes: { total: locals.length, active: locals.length - stale, stale },
      capacity: { compute_units: computeUnits(region.compute_info) + locals.reduce((sum, l) => sum + computeUnits(l.compute_info ?? {}), 0) },
    };
  }

  async assignment(nodeId: string) {
    const node = await this.nodes().findOne({ _id: nodeId });
    if (!node?.region_id) return null;
    const region = (await this.regions()).find((r) => r.region_id === node.region_id);
    if (!region) return null;
    return { success: true as const, node_id: nodeId, region_id: region.region_id, region_name: region.region_name, regional_node_id: region.node_id, assigned_at: node.assigned_at };
  }

  async provisionedNodes() {
    const docs = await this.readStore.collection<ProvisionedNodeDoc>(PROVISIONED_NODES).find({}, { sort: { id: 1 }, limit: 10_000 });
    return docs.map(provisionRecord);
  }

  async provisionedNode(id: number) {
    const doc = await this.readStore.collection<ProvisionedNodeDoc>(PROVISIONED_NODES).findOne({ _id: String(id) });
    return doc ? provisionRecord(doc) : null;
  }
}

export function provisionRecord(d: ProvisionedNodeDoc) {
  return {
    id: d.id,
    target_host: d.target_host,
    ssh_user: d.ssh_user,
    node_id: d.node_id,
    capability_tier: d.capability_tier,
    status: d.status,
    installed_version: d.installed_version,
    provisioned_at: d.provisioned_at,
    last_health_check: d.last_health_check,
    provisioned_by: d.provisioned_by,
    error_message: d.error_message,
    backend_port: d.backend_port,
    join_peer: d.join_peer,
    plan: d.plan,
    update_plan: d.update_plan,
    decommissioned_at: d.decommissioned_at,
  };
}
