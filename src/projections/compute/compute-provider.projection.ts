/**
 * `compute_provider_stats`: per node, the figures of the provider dashboard
 * (SPEC §2.4): compute served, pending settlements and rewards.
 *
 * Rewards: every `SparkAwarded` event of the contest wallets counts, with its
 * amount, credited to the node that recorded it (`metadata.nodeId`).
 */
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const COMPUTE_PROVIDER_STATS = 'compute_provider_stats';

export interface ComputeProviderCounters {
  gpu_hours_served?: number;
  total_inferences?: number;
  energy_kwh_contributed?: number;
  metered_api_costs_absorbed?: number;
  compute_reports?: number;
  pending_settlements?: number;
  pending_settlement_cents?: number;
  completed_settlements?: number;
  settled_cents?: number;
  total_spark_earned?: number;
  total_rewards?: number;
}

export interface ComputeProviderStatsDoc extends Doc, ComputeProviderCounters {}

function credit(writer: ProjectionWriter, nodeId: string, event: { position: number }, inc: ComputeProviderCounters): void {
  if (!nodeId) return;
  applyOnce(writer, COMPUTE_PROVIDER_STATS, nodeId, event, { $inc: inc });
}

export const computeProviderProjection = defineProjection({
  name: 'computeProvider',
  version: 1,
  collections: [COMPUTE_PROVIDER_STATS],
  on: {
    ComputeServed: (event, writer) => {
      const d = event.data;
      credit(writer, d.node_id, event, {
        gpu_hours_served: d.gpu_hours,
        total_inferences: d.inferences,
        energy_kwh_contributed: d.energy_kwh,
        metered_api_costs_absorbed: d.metered_api_cost_usd,
        compute_reports: 1,
      });
    },
    SettlementRequested: (event, writer) =>
      credit(writer, event.data.node_id, event, { pending_settlements: 1, pending_settlement_cents: event.data.amount_cents }),
    SettlementCompleted: (event, writer) =>
      credit(writer, event.data.node_id, event, {
        pending_settlements: -1,
        pending_settlement_cents: -event.data.amount_cents,
        completed_settlements: 1,
        settled_cents: event.data.amount_cents,
      }),
    SparkAwarded: (event, writer) => credit(writer, event.metadata.nodeId, event, { total_spark_earned: event.data.amount, total_rewards: 1 }),
  },
});
