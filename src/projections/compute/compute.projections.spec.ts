import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import { BatchedProjectionWriter } from '../../infrastructure/projections/batched-writer';
import type { ProjectionDefinition } from '../../infrastructure/projections/projection';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { COMPUTE_PROVIDER_STATS, computeProviderProjection } from './compute-provider.projection';
import { COMPUTE_SETTINGS, computeSettingsProjection } from './compute-settings.projection';
import { REVENUE_DAILY, revenueProjection } from './revenue.projection';

const at = (position: number, type: string, data: Record<string, unknown>, nodeId = 'n1'): RecordedEvent => ({
  streamId: 's-1',
  type,
  revision: position - 1,
  position,
  data,
  recordedAt: 't',
  metadata: { eventId: `e${position}`, correlationId: 'c', causationId: null, actor: 'a', nodeId, occurredAt: 't', schemaVersion: 1 },
});

async function apply(store: EmbeddedReadStore, projection: ProjectionDefinition, ...events: RecordedEvent[]): Promise<void> {
  const writer = new BatchedProjectionWriter(store);
  for (const event of events) await projection.apply(event, writer);
  await writer.flush();
}

describe('compute projections', () => {
  it('provider stats: served compute, settlements and SparkAwarded add up, and a replay counts nothing twice', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [
      at(1, 'ComputeServed', { node_id: 'n1', gpu_hours: 1.5, inferences: 10, energy_kwh: 2, metered_api_cost_usd: 0.25 }),
      at(2, 'SettlementRequested', { node_id: 'n1', amount_cents: 500 }),
      at(3, 'SettlementRequested', { node_id: 'n1', amount_cents: 250 }),
      at(4, 'SettlementCompleted', { node_id: 'n1', amount_cents: 500 }),
      at(5, 'SparkAwarded', { user_id: 'u1', amount: 7 }),
      at(6, 'SparkAwarded', { user_id: 'u1', spark: 3 }, 'n2'),
    ];
    await apply(store, computeProviderProjection, ...events);
    await apply(store, computeProviderProjection, ...events);
    expect(await store.collection(COMPUTE_PROVIDER_STATS).findOne({ _id: 'n1' })).toMatchObject({
      gpu_hours_served: 1.5,
      total_inferences: 10,
      energy_kwh_contributed: 2,
      metered_api_costs_absorbed: 0.25,
      pending_settlements: 1,
      pending_settlement_cents: 250,
      settled_cents: 500,
      total_spark_earned: 7,
      total_rewards: 1,
    });
    expect(await store.collection(COMPUTE_PROVIDER_STATS).findOne({ _id: 'n2' })).toMatchObject({ total_spark_earned: 3, total_rewards: 1 });
  });

  it('settings: policy and peer changes land under their store, the join is flagged', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await apply(
      store,
      computeSettingsProjection,
      at(1, 'NodeComputeConfigUpdated', { node_id: 'n1', node_tier: 'flat', changes: { auto_settle: false }, updated_at: 't' }),
      at(2, 'PeerNodeRecordUpdated', { node_id: 'n1', node_tier: 'flat', changes: { electricity_rate_kwh: 0.2 }, record: {}, updated_at: 't' }),
      at(3, 'ComputeProviderJoined', { node_id: 'n1', node_tier: 'flat', record: {}, joined_at: 't' }),
    );
    expect(await store.collection(COMPUTE_SETTINGS).findOne({ _id: 'n1' })).toMatchObject({
      policy: { auto_settle: false },
      peer: { electricity_rate_kwh: 0.2 },
      joined: true,
    });
  });

  it('revenue: integer cents per UTC day and stream, exact under replay', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [
      at(1, 'RevenueRecorded', { stream: 'api', amount_cents: 333, occurred_at: '2026-11-22T23:59:59.000Z' }),
      at(2, 'RevenueRecorded', { stream: 'api', amount_cents: 1, occurred_at: '2026-11-22T00:00:00.000Z' }),
      at(3, 'RevenueRecorded', { stream: 'hosting_payout', amount_cents: 7, occurred_at: '2026-11-23T00:00:00.000Z' }),
    ];
    await apply(store, revenueProjection, ...events);
    await apply(store, revenueProjection, ...events);
    expect(await store.collection(REVENUE_DAILY).findOne({ _id: '2026-11-22' })).toMatchObject({ api_cents: 334, entries: 2 });
    expect(await store.collection(REVENUE_DAILY).findOne({ _id: '2026-11-23' })).toMatchObject({ hosting_payout_cents: 7 });
  });
});
