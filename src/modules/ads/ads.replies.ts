/** Reply schemas of the ads routes (social-routes §16) for the OpenAPI document. */
import { AD_STATUSES, IMPRESSION_TYPES } from '../../aggregates/ads/ad-unit';
import { PLACEMENT_NAMES } from '../../aggregates/ads/placements';
import { bool, int, list, num, obj, oneOf, orNull, str } from '../common/openapi';

const time = () => str({ format: 'date-time' });

export const AD_UNIT = obj({
  id: str(),
  advertiser_id: str(),
  title: str({ description: 'HTML-escaped' }),
  content: str({ description: 'HTML-escaped' }),
  image_url: orNull(str()),
  click_url: str(),
  ad_type: str(),
  targeting: obj({ region_ids: list(str()), community_ids: list(str()), user_types: list(str()) }),
  budget_spark: int({ minimum: 50 }),
  spent_spark: num({ description: 'with its fraction (centi-spark), never above the budget' }),
  cost_per_impression: num(),
  cost_per_click: num(),
  impression_count: int(),
  click_count: int(),
  status: oneOf(AD_STATUSES),
  starts_at: orNull(time()),
  ends_at: orNull(time()),
  created_at: time(),
});

export const IMPRESSION = obj({
  id: str(),
  ad_id: str(),
  placement_id: orNull(oneOf(PLACEMENT_NAMES)),
  node_id: orNull(str()),
  region_id: orNull(str()),
  user_id: str(),
  impression_type: oneOf(IMPRESSION_TYPES),
  created_at: time(),
  witness_node_id: orNull(str()),
  witness_signature: orNull(str()),
  sealed_hash: str({ description: 'sha256 (hex) of the charge’s fields' }),
  sealed_at: time(),
  witnessed: bool({ description: 'a peer node’s co-signature (POST /integrity/witness-impression) verified: the operator gets 90% instead of 50%' }),
});

export const SERVED = obj({ ad: AD_UNIT, placement: oneOf(PLACEMENT_NAMES) });

export const ANALYTICS = obj({
  ad: AD_UNIT,
  impressions: int(),
  clicks: int(),
  ctr: num({ description: 'clicks per 100 views, 2 decimals' }),
  spent_spark: num(),
  remaining_spark: num({ description: 'budget − spent; 0 once completed (refunded)' }),
  node_breakdown: list(obj({ node_id: str(), count: int({ description: 'views and clicks the node served' }) })),
});

export const DELETED = obj({ deleted: { const: true }, spark_refunded: num() });
