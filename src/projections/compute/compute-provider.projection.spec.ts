import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { COMPUTE_PROVIDER_STATS, computeProviderProjection as projection } from './compute-provider.projection';

const served = (nodeId: string) =>
  recorded('ComputeServed', { report_id: 'r1', node_id: nodeId, gpu_hours: 1.5, inferences: 10, energy_kwh: 2, metered_api_cost_usd: 0.25, served_at: 't' });
const requested = (id: string, cents: number) =>
  recorded('SettlementRequested', { settlement_id: id, node_id: 'n1', amount_cents: cents, requested_at: 't' });
const completed = (id: string, cents: number) =>
  recorded('SettlementCompleted', { settlement_id: id, node_id: 'n1', amount_cents: cents, completed_at: 't' });
const awarded = (amount: number, nodeId: string) =>
  recorded(
    'SparkAwarded',
    { user_id: 'u1', amount, tracks: { digital: amount }, source_type: 'x', source_id: `s${amount}`, reason: 'x', awarded_at: 't' },
    { nodeId },
  );
const statsOf = (store: EmbeddedReadStore, nodeId: string) => store.collection(COMPUTE_PROVIDER_STATS).findOne({ _id: nodeId });

describe('computeProvider projection', () => {
  it('given compute served, then the node sums hours, inferences, energy and absorbed costs', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, served('n1'));
    expect(await statsOf(store, 'n1')).toMatchObject({
      gpu_hours_served: 1.5,
      total_inferences: 10,
      energy_kwh_contributed: 2,
      metered_api_costs_absorbed: 0.25,
      compute_reports: 1,
    });
  });

  it('given two settlements requested and one completed, then one stays pending and the other is settled', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, requested('st1', 500), requested('st2', 250), completed('st1', 500));
    expect(await statsOf(store, 'n1')).toMatchObject({
      pending_settlements: 1,
      pending_settlement_cents: 250,
      completed_settlements: 1,
      settled_cents: 500,
    });
  });

  it('given awards recorded on two nodes, then each node that recorded one is credited with its amount', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, awarded(7, 'n1'), awarded(3, 'n2'));
    expect(await statsOf(store, 'n1')).toMatchObject({ total_spark_earned: 7, total_rewards: 1 });
    expect(await statsOf(store, 'n2')).toMatchObject({ total_spark_earned: 3, total_rewards: 1 });
  });

  it('given served compute, settlements and awards, when they are replayed, then nothing is counted twice', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [served('n1'), requested('st1', 500), completed('st1', 500), awarded(7, 'n1')];
    await applyAll(projection, store, ...events);
    await applyAll(projection, store, ...events);
    expect(await statsOf(store, 'n1')).toMatchObject({
      gpu_hours_served: 1.5,
      compute_reports: 1,
      pending_settlements: 0,
      pending_settlement_cents: 0,
      settled_cents: 500,
      total_spark_earned: 7,
      total_rewards: 1,
    });
  });
});
