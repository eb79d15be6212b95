/**
 * `compute_provider_stats`: per node, the figures of the provider dashboard
 * (SPEC §2.4): compute served, pending settlements and rewards.
 *
 * Rewards: every `SparkAwarded` event counts, matched by type name only (the
 * wallet context owns it). It is credited to `data.node_id` when present,
 * else to the node that recorded it (`metadata.nodeId`); its amount is the
 * first integer of `data.amount`, `data.spark`, `data.amount_spark`.
 */
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';

export const COMPUTE_PROVIDER_STATS = 'compute_provider_stats';

export interface ComputeProviderStatsDoc extends Doc {
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

function sparkAmount(data: Record<string, unknown>): number {
  for (const field of ['amount', 'spark', 'amount_spark']) {
    const value = data[field];
    if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  }
  return 0;
}

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export const computeProviderProjection: ProjectionDefinition = {
  name: 'computeProvider',
  version: 1,
  eventTypes: ['ComputeServed', 'SettlementRequested', 'SettlementCompleted', 'SparkAwarded'],
  collections: [COMPUTE_PROVIDER_STATS],
  apply(event: RecordedEvent, writer: ProjectionWriter): void {
    const data = event.data as Record<string, unknown>;
    let nodeId = typeof data.node_id === 'string' ? data.node_id : null;
    let inc: Record<string, number>;
    switch (event.type) {
      case 'ComputeServed':
        inc = {
          gpu_hours_served: num(data.gpu_hours),
          total_inferences: num(data.inferences),
          energy_kwh_contributed: num(data.energy_kwh),
          metered_api_costs_absorbed: num(data.metered_api_cost_usd),
          compute_reports: 1,
        };
        break;
      case 'SettlementRequested':
        inc = { pending_settlements: 1, pending_settlement_cents: num(data.amount_cents) };
        break;
      case 'SettlementCompleted':
        inc = {
          pending_settlements: -1,
          pending_settlement_cents: -num(data.amount_cents),
          completed_settlements: 1,
          settled_cents: num(data.amount_cents),
        };
        break;
      case 'SparkAwarded':
        nodeId ??= event.metadata.nodeId;
        inc = { total_spark_earned: sparkAmount(data), total_rewards: 1 };
        break;
      default:
        return;
    }
    if (!nodeId) return;
    applyOnce(writer, COMPUTE_PROVIDER_STATS, nodeId, event, { $inc: inc });
  },
};
