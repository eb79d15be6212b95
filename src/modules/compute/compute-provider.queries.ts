/**
 * Provider dashboards (SPEC §4.3): this node's from its own read models, a
 * peer's from what gossip told this node (`peer_nodes`); the figures from
 * `compute_provider_stats`. Who may see which is provider-access.ts.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Role } from '../../aggregates/accounts/user.events';
import { COMPUTE_DEFAULTS } from '../../aggregates/compute/compute-fields';
import { type DashboardScope, dashboardAccess } from '../../aggregates/compute/provider-access';
import { centsToUnits } from '../../aggregates/compute/revenue-split';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { COMPUTE_PROVIDER_STATS, type ComputeProviderStatsDoc } from '../../projections/compute/compute-provider.projection';
import { ComputeSettingsQueries } from './compute-settings.queries';
import { contribution } from './compute-view';
import { PEER_NODES, type PeerNodeDoc } from '../../projections/compute/peer-nodes.read-model';

export interface ProviderDashboard {
  node_id: string;
  node_tier: string;
  /** whether this node is the one answering (false: a peer known through gossip) */
  local: boolean;
  joined: boolean;
  contribution: { score: number; breakdown: Record<string, number> };
  compute_stats: { gpu_hours_served: number; total_inferences: number; energy_kwh_contributed: number; metered_api_costs_absorbed: number };
  provider_identity: { cause_alignment: string; electricity_rate_kwh: number };
  pending_settlements: { count: number; total_usd: number };
  reward_summary: { total_spark_earned: number; total_rewards: number };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

@Injectable()
export class ComputeProviderQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: ComputeSettingsQueries,
  ) {}

  /** The dashboards of `scope` that `role` may see: `{nodes}` for all, else one (404 when the node is unknown). */
  async visibleTo(role: Role, scope: DashboardScope): Promise<ProviderDashboard | { nodes: ProviderDashboard[] }> {
    const nodeId = dashboardAccess(scope, role, this.config.nodeId);
    if (nodeId === null) return { nodes: await this.allProviderDashboards() };
    const dashboard = await this.providerDashboard(nodeId);
    if (!dashboard) throw new DomainError('not_found', 'node not found');
    return dashboard;
  }

  /** This node's dashboard, or a peer's (known through gossip); null when the node is unknown. */
  async providerDashboard(nodeId: string): Promise<ProviderDashboard | null> {
    const local = nodeId === this.config.nodeId;
    let identity: ProviderDashboard['provider_identity'];
    let nodeTier: string;
    let joined: boolean;
    if (local) {
      const { values } = await this.settings.merged();
      const doc = await this.settings.stored();
      identity = { cause_alignment: values.cause_alignment, electricity_rate_kwh: values.electricity_rate_kwh };
      nodeTier = this.config.nodeTier;
      joined = doc?.joined === true;
    } else {
      const peer = await this.store.collection<PeerNodeDoc>(PEER_NODES).findOne({ _id: String(nodeId) });
      if (!peer) return null;
      identity = {
        cause_alignment: peer.cause_alignment ?? COMPUTE_DEFAULTS.cause_alignment,
        electricity_rate_kwh: peer.electricity_rate_kwh ?? COMPUTE_DEFAULTS.electricity_rate_kwh,
      };
      nodeTier = peer.node_tier ?? 'flat';
      joined = peer.joined === true;
    }
    const stats = (await this.store.collection<ComputeProviderStatsDoc>(COMPUTE_PROVIDER_STATS).findOne({ _id: String(nodeId) })) ?? { _id: nodeId };
    const computeStats = {
      gpu_hours_served: round6(stats.gpu_hours_served ?? 0),
      total_inferences: stats.total_inferences ?? 0,
      energy_kwh_contributed: round6(stats.energy_kwh_contributed ?? 0),
      metered_api_costs_absorbed: round6(stats.metered_api_costs_absorbed ?? 0),
    };
    const rewards = { total_spark_earned: stats.total_spark_earned ?? 0, total_rewards: stats.total_rewards ?? 0 };
    return {
      node_id: nodeId,
      node_tier: nodeTier,
      local,
      joined,
      contribution: contribution({ ...computeStats, total_rewards: rewards.total_rewards }),
      compute_stats: computeStats,
      provider_identity: identity,
      pending_settlements: { count: stats.pending_settlements ?? 0, total_usd: centsToUnits(stats.pending_settlement_cents ?? 0) },
      reward_summary: rewards,
    };
  }

  /** Every node this node knows: itself first, then its peers by id. */
  async allProviderDashboards(): Promise<ProviderDashboard[]> {
    const peers = await this.store.collection<PeerNodeDoc>(PEER_NODES).find({}, { sort: { _id: 1 } });
    const ids = [this.config.nodeId, ...peers.map((p) => p._id).filter((id) => id !== this.config.nodeId)];
    const dashboards = await Promise.all(ids.map((id) => this.providerDashboard(id)));
    return dashboards.filter((d): d is ProviderDashboard => d !== null);
  }
}
