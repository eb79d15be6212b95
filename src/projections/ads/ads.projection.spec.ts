import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { AD_IMPRESSIONS, AD_NODE_COUNTS, AD_UNITS, adsProjection } from './ads.projection';

const created = () =>
  recorded('AdUnitCreated', {
    ad_id: 'ad1',
    advertiser_id: 'ann',
    title: 'Shoes',
    content: '',
    image_url: null,
    click_url: 'https://example.org',
    ad_type: 'banner',
    targeting: { region_ids: [], community_ids: [], user_types: [] },
    budget_spark: 50,
    cost_per_impression: 0.1,
    cost_per_click: 1,
    starts_at: null,
    ends_at: null,
    created_at: '2026-12-01T10:00:00.000Z',
  });

const charged = (id: string, type: 'view' | 'click', spent: number, nodeId: string | null = 'n1') =>
  recorded('AdImpressionRecorded', {
    impression_id: id,
    ad_id: 'ad1',
    advertiser_id: 'ann',
    impression_type: type,
    user_id: 'bob',
    placement_id: null,
    node_id: nodeId,
    region_id: null,
    witness_node_id: null,
    witness_signature: null,
    witnessed: false,
    sealed_hash: 'h',
    cost_spark: type === 'view' ? 0.1 : 1,
    spent_spark: spent,
    remaining_spark: Math.round((50 - spent) * 100) / 100,
    operator_id: null,
    operator_share_spark: 0,
    created_at: '2026-12-01T10:05:00.000Z',
  });

describe('ads projection', () => {
  it('given an ad, views and a click, then the unit counts them, keeps spent_spark with its fraction, and counts per node', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [created(), charged('i1', 'view', 0.1), charged('i2', 'view', 0.2, null), charged('i3', 'click', 1.2)];
    // the click delivered twice (a redelivery) counts once
    await applyAll(adsProjection, store, ...events, events[3]);
    expect(await store.collection(AD_UNITS).findOne({ _id: 'ad1' })).toMatchObject({ impression_count: 2, click_count: 1, spent_spark: 1.2, remaining_spark: 48.8, status: 'active' });
    expect(await store.collection(AD_IMPRESSIONS).countDocuments({ ad_id: 'ad1' })).toBe(3);
    expect(await store.collection(AD_NODE_COUNTS).find({ ad_id: 'ad1' })).toEqual([expect.objectContaining({ node_id: 'n1', count: 2 })]);
  });

  it('given a completed ad, then completed with nothing remaining', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const past = [created(), charged('i1', 'view', 0.1)];
    const done = recorded('AdUnitCompleted', { ad_id: 'ad1', advertiser_id: 'ann', budget_spark: 50, spent_spark: 0.1, refunded_spark: 49.9, completed_by: 'ann', completed_at: '2026-12-01T11:00:00.000Z' });
    await applyAll(adsProjection, store, ...past, done);
    expect(await store.collection(AD_UNITS).findOne({ _id: 'ad1' })).toMatchObject({ status: 'completed', spent_spark: 0.1, remaining_spark: 0 });
  });
});
