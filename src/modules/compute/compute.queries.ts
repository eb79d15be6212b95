/** Read-model lookups of the compute context: settings view, provider dashboards, peers, revenue. */
import { Inject, Injectable } from '@nestjs/common';
import { COMPUTE_DEFAULTS, type ComputeSettings } from '../../aggregates/compute/compute-fields';
import { centsToUnits, splitRevenue } from '../../aggregates/compute/revenue-split';
import { COMPUTE_OVERRIDES, type ComputeOverrides } from '../../config/compute.config';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { COMPUTE_ESCROWS, type ComputeEscrowDoc } from '../../projections/compute-escrows.projection';
import { COMPUTE_PROVIDER_STATS, type ComputeProviderStatsDoc } from '../../projections/compute-provider.projection';
import { COMPUTE_SETTINGS, type ComputeSettingsDoc } from '../../projections/compute-settings.projection';
import { REVENUE_DAILY, type RevenueDailyDoc } from '../../projections/revenue.projection';
import { TRADING_PORTFOLIOS, type TradingPortfolioDoc } from '../../projections/trading.projection';
import { contribution, type MergedComputeSettings, mergeComputeSettings, type ValueSource } from './compute-view';
import { PEER_NODES, type PeerNodeDoc } from '../../projections/compute/peer-nodes.read-model';

export type ComputeSettingsView = { node_id: string; node_tier: string } & ComputeSettings & { sources: Record<string, ValueSource> };

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
export class ComputeQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(COMPUTE_OVERRIDES) private readonly overrides: ComputeOverrides,
  ) {}

  get nodeId(): string {
    return this.config.nodeId;
  }

  async merged(): Promise<MergedComputeSettings> {
    const doc = await this.store.collection<ComputeSettingsDoc>(COMPUTE_SETTINGS).findOne({ _id: this.config.nodeId });
    return mergeComputeSettings(this.overrides, { policy: doc?.policy, peer: doc?.peer }, this.config.nodeTier);
  }

  async settings(): Promise<ComputeSettingsView> {
    const { values, sources } = await this.merged();
    return { node_id: this.config.nodeId, node_tier: this.config.nodeTier, ...values, sources };
  }

  /** This node's dashboard, or a peer's (known through gossip); null when the node is unknown. */
  async providerDashboard(nodeId: string): Promise<ProviderDashboard | null> {
    const local = nodeId === this.config.nodeId;
    let identity: ProviderDashboard['provider_identity'];
    let nodeTier: string;
    let joined: boolean;
    if (local) {
      const { values } = await this.merged();
      const doc = await this.store.collection<ComputeSettingsDoc>(COMPUTE_SETTINGS).findOne({ _id: nodeId });
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

  peers(): Promise<PeerNodeDoc[]> {
    return this.store.collection<PeerNodeDoc>(PEER_NODES).find({}, { sort: { _id: 1 } });
  }

  /** SPEC §2.3. The period is the last `periodDays` UTC days, today included. */
  async revenueDashboard(periodDays: number, now: Date) {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (periodDays - 1)));
    const days = await this.store.collection<RevenueDailyDoc>(REVENUE_DAILY).find({ day: { $gte: first.toISOString().slice(0, 10) } });
    const sum = (field: 'api_cents' | 'ad_cents' | 'hosting_payout_cents') => days.reduce((total, d) => total + (d[field] ?? 0), 0);
    const api = sum('api_cents');
    const ad = sum('ad_cents');
    const hosting = sum('hosting_payout_cents');
    const gross = api + ad + hosting;
    const split = splitRevenue(gross);
    const portfolios = await this.store.collection<TradingPortfolioDoc>(TRADING_PORTFOLIOS).find({}, { sort: { _id: 1 } });
    const escrows = await this.store.collection<ComputeEscrowDoc>(COMPUTE_ESCROWS).find({ status: 'active' });
    return {
      revenue: {
        period_days: periodDays,
        api_revenue: centsToUnits(api),
        ad_revenue: centsToUnits(ad),
        hosting_payouts: centsToUnits(hosting),
        total_gross: centsToUnits(gross),
        user_pool_share: centsToUnits(split.user_pool_cents),
        infra_pool_share: centsToUnits(split.infra_pool_cents),
        central_share: centsToUnits(split.central_cents),
      },
      trading: {
        portfolios: portfolios.map((p) => ({ portfolio_id: p.portfolio_id, owner_id: p.owner_id ?? null, name: p.name ?? null, pnl: p.pnl ?? 0 })),
        total_pnl: portfolios.reduce((total, p) => total + (p.pnl ?? 0), 0),
      },
      compute_borrowing: {
        active_escrows: escrows.length,
        total_spark_escrowed: escrows.reduce((total, e) => total + (e.spark_amount ?? 0), 0),
      },
    };
  }
}
