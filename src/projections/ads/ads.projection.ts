/**
 * The ads read models (social-routes §16), from the ad unit streams:
 * - `ad_units`: one document per ad (`_id` the ad id), the Ad unit record of
 *   §0.5 plus `remaining_spark` (budget − spent; 0 once completed, the rest
 *   refunded) that serving ranks by; spent_spark keeps its fraction.
 * - `ad_impressions`: one document per charged view or click (`_id` the
 *   impression id): the impression record; serving's frequency cap counts a
 *   user's views of the last hour here.
 * - `ad_node_counts`: per ad and node (`_id` `<ad id>|<node id>`), the views
 *   and clicks served by that node: the analytics' node breakdown.
 */
import type { AdStatus, AdTargeting, ImpressionType } from '../../aggregates/ads/ad-unit';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const AD_UNITS = 'ad_units';
export const AD_IMPRESSIONS = 'ad_impressions';
export const AD_NODE_COUNTS = 'ad_node_counts';

export interface AdUnitDoc extends Doc {
  id: string;
  advertiser_id: string;
  title: string;
  content: string;
  image_url: string | null;
  click_url: string;
  ad_type: string;
  targeting: AdTargeting;
  budget_spark: number;
  spent_spark: number;
  remaining_spark: number;
  cost_per_impression: number;
  cost_per_click: number;
  impression_count: number;
  click_count: number;
  status: AdStatus;
  starts_at: string | null;
  ends_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AdImpressionDoc extends Doc {
  id: string;
  ad_id: string;
  placement_id: string | null;
  node_id: string | null;
  region_id: string | null;
  user_id: string;
  impression_type: ImpressionType;
  created_at: string;
  witness_node_id: string | null;
  witness_signature: string | null;
  witnessed: boolean;
  sealed_hash: string;
  sealed_at: string;
  cost_spark: number;
  operator_id: string | null;
  operator_share_spark: number;
}

export interface AdNodeCountDoc extends Doc {
  ad_id: string;
  node_id: string;
  count: number;
}

export const adsProjection = defineProjection({
  name: 'ads',
  version: 1,
  collections: [AD_UNITS, AD_IMPRESSIONS, AD_NODE_COUNTS],
  indexes: [
    { collection: AD_UNITS, spec: { keys: { advertiser_id: 1, created_at: -1 } } },
    { collection: AD_UNITS, spec: { keys: { status: 1, remaining_spark: -1 } } },
    { collection: AD_IMPRESSIONS, spec: { keys: { user_id: 1, impression_type: 1, created_at: -1 } } },
    { collection: AD_NODE_COUNTS, spec: { keys: { ad_id: 1, count: -1 } } },
  ],
  on: {
    AdUnitCreated: (event, writer) => {
      const { ad_id, ...d } = event.data;
      applyOnce(writer, AD_UNITS, ad_id, event, {
        $set: { id: ad_id, ...d, spent_spark: 0, remaining_spark: d.budget_spark, impression_count: 0, click_count: 0, status: 'active', updated_at: d.created_at },
      });
    },
    AdImpressionRecorded: (event, writer) => {
      const d = event.data;
      const counter = d.impression_type === 'view' ? 'impression_count' : 'click_count';
      applyOnce(writer, AD_UNITS, d.ad_id, event, { $set: { spent_spark: d.spent_spark, remaining_spark: d.remaining_spark, updated_at: d.created_at }, $inc: { [counter]: 1 } }, { upsert: false });
      applyOnce(writer, AD_IMPRESSIONS, d.impression_id, event, {
        $set: {
          id: d.impression_id,
          ad_id: d.ad_id,
          placement_id: d.placement_id,
          node_id: d.node_id,
          region_id: d.region_id,
          user_id: d.user_id,
          impression_type: d.impression_type,
          created_at: d.created_at,
          witness_node_id: d.witness_node_id,
          witness_signature: d.witness_signature,
          witnessed: d.witnessed,
          sealed_hash: d.sealed_hash,
          sealed_at: d.created_at,
          cost_spark: d.cost_spark,
          operator_id: d.operator_id,
          operator_share_spark: d.operator_share_spark,
        },
      });
      if (d.node_id !== null) {
        applyOnce(writer, AD_NODE_COUNTS, `${d.ad_id}|${d.node_id}`, event, { $set: { ad_id: d.ad_id, node_id: d.node_id }, $inc: { count: 1 } });
      }
    },
    AdUnitExhausted: (event, writer) =>
      applyOnce(writer, AD_UNITS, event.data.ad_id, event, { $set: { status: 'exhausted', updated_at: event.data.exhausted_at } }, { upsert: false }),
    AdUnitCompleted: (event, writer) => {
      const d = event.data;
      applyOnce(writer, AD_UNITS, d.ad_id, event, { $set: { status: 'completed', spent_spark: d.spent_spark, remaining_spark: 0, updated_at: d.completed_at } }, { upsert: false });
    },
  },
});
