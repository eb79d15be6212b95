/** Reads of the ads read models (social-routes §16), and the users and node standings they are joined with. */
import { Inject, Injectable } from '@nestjs/common';
import { type AdStatus, LIMIT_PER_HOUR, RATE_WINDOW_MS } from '../../aggregates/ads/ad-unit';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { USERS, type UserDoc } from '../../projections/accounts/users.projection';
import { AD_IMPRESSIONS, AD_NODE_COUNTS, AD_UNITS, type AdImpressionDoc, type AdNodeCountDoc, type AdUnitDoc } from '../../projections/ads/ads.projection';
import { NODE_STANDINGS, type NodeStandingDoc } from '../../projections/integrity/node-standings.projection';
import { escapeHtml } from '../common/html-escape';
import type { Page } from '../common/paging';

/**
 * The Ad unit record (§0.5): the ad_units document without its bookkeeping
 * (`_id`, `remaining_spark`, `updated_at`); title and content HTML-escaped.
 * (Picked, not omitted: the document's index signature would swallow an Omit.)
 */
export type AdUnitView = Pick<
  AdUnitDoc,
  | 'id'
  | 'advertiser_id'
  | 'title'
  | 'content'
  | 'image_url'
  | 'click_url'
  | 'ad_type'
  | 'targeting'
  | 'budget_spark'
  | 'spent_spark'
  | 'cost_per_impression'
  | 'cost_per_click'
  | 'impression_count'
  | 'click_count'
  | 'status'
  | 'starts_at'
  | 'ends_at'
  | 'created_at'
>;

/** The impression record of §16 (+ `witnessed`). */
/** An impression record as the view and click routes answer it (social-routes §0.5): picked from the read model's document. */
export type ImpressionView = Pick<
  AdImpressionDoc,
  'id' | 'ad_id' | 'placement_id' | 'node_id' | 'region_id' | 'user_id' | 'impression_type' | 'created_at' | 'witness_node_id' | 'witness_signature' | 'sealed_hash' | 'sealed_at' | 'witnessed'
>;

export interface AdAnalytics {
  ad: AdUnitView;
  impressions: number;
  clicks: number;
  ctr: number;
  spent_spark: number;
  remaining_spark: number;
  node_breakdown: { node_id: string; count: number }[];
}

/** What serving knows of the viewer and the request. */
export interface ServeContext {
  viewerId: string | null;
  userType: string | null;
  region: string | null;
  communityId: string | null;
  now: Date;
}

const CANDIDATE_PAGE = 200;

export function adView(doc: AdUnitView): AdUnitView {
  return {
    id: doc.id,
    advertiser_id: doc.advertiser_id,
    title: escapeHtml(doc.title),
    content: escapeHtml(doc.content),
    image_url: doc.image_url,
    click_url: doc.click_url,
    ad_type: doc.ad_type,
    targeting: doc.targeting,
    budget_spark: doc.budget_spark,
    spent_spark: doc.spent_spark,
    cost_per_impression: doc.cost_per_impression,
    cost_per_click: doc.cost_per_click,
    impression_count: doc.impression_count,
    click_count: doc.click_count,
    status: doc.status,
    starts_at: doc.starts_at,
    ends_at: doc.ends_at,
    created_at: doc.created_at,
  };
}

/** A targeted dimension (a non-empty list) matches only a request value in it; an untargeted one matches anything. */
const matches = (targeted: readonly string[], value: string | null): boolean => targeted.length === 0 || (value !== null && targeted.includes(value));

export function servable(doc: AdUnitDoc, context: ServeContext): boolean {
  const now = context.now.toISOString();
  if (doc.status !== 'active' || doc.remaining_spark < doc.cost_per_impression) return false;
  if ((doc.starts_at !== null && doc.starts_at > now) || (doc.ends_at !== null && doc.ends_at <= now)) return false;
  const t = doc.targeting;
  return matches(t.region_ids, context.region) && matches(t.community_ids, context.communityId) && matches(t.user_types, context.userType);
}

@Injectable()
export class AdsQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private units() {
    return this.store.collection<AdUnitDoc>(AD_UNITS);
  }

  async unit(adId: string): Promise<AdUnitDoc | null> {
    return this.units().findOne({ _id: String(adId) });
  }

  /** The advertiser's ads, newest first, of one status or all. */
  async mine(advertiserId: string, status: AdStatus | null, page: Page): Promise<AdUnitView[]> {
    const filter = status ? { advertiser_id: String(advertiserId), status: String(status) } : { advertiser_id: String(advertiserId) };
    const docs = await this.units().find(filter, { sort: { created_at: -1, _id: -1 }, skip: page.offset, limit: page.limit });
    return docs.map(adView);
  }

  /**
   * The ad to serve: active, with budget left for a view, inside its window,
   * matching the request on every targeted dimension, not viewed 3 times in
   * the last hour by the signed-in viewer; the most remaining budget wins
   * (ties: the older ad).
   */
  async serve(context: ServeContext): Promise<AdUnitView | null> {
    const capped = context.viewerId ? await this.cappedFor(context.viewerId, context.now) : new Set<string>();
    for (let skip = 0; ; skip += CANDIDATE_PAGE) {
      const docs = await this.units().find({ status: 'active' }, { sort: { remaining_spark: -1, created_at: 1, _id: 1 }, skip, limit: CANDIDATE_PAGE });
      const found = docs.find((doc) => !capped.has(doc.id) && servable(doc, context));
      if (found) return adView(found);
      if (docs.length < CANDIDATE_PAGE) return null;
    }
  }

  /** The ads the user viewed as often as the hourly limit in the hour before `now`. */
  private async cappedFor(userId: string, now: Date): Promise<Set<string>> {
    const since = new Date(now.getTime() - RATE_WINDOW_MS).toISOString();
    const views = await this.store
      .collection<AdImpressionDoc>(AD_IMPRESSIONS)
      .find({ user_id: String(userId), impression_type: 'view', created_at: { $gt: since } }, { projection: { ad_id: 1 } });
    const counts = new Map<string, number>();
    for (const v of views) counts.set(v.ad_id, (counts.get(v.ad_id) ?? 0) + 1);
    return new Set([...counts].filter(([, n]) => n >= LIMIT_PER_HOUR.view).map(([id]) => id));
  }

  async analytics(doc: AdUnitDoc): Promise<AdAnalytics> {
    const nodes = await this.store.collection<AdNodeCountDoc>(AD_NODE_COUNTS).find({ ad_id: doc.id }, { sort: { count: -1, node_id: 1 } });
    const impressions = doc.impression_count;
    const clicks = doc.click_count;
    return {
      ad: adView(doc),
      impressions,
      clicks,
      ctr: impressions > 0 ? Math.round((clicks / impressions) * 10_000) / 100 : 0,
      spent_spark: doc.spent_spark,
      remaining_spark: doc.remaining_spark,
      node_breakdown: nodes.map((n) => ({ node_id: n.node_id, count: n.count })),
    };
  }

  /** The user type of a signed-in viewer (the user_types targeting). */
  async userTypeOf(userId: string): Promise<string | null> {
    const user = await this.store.collection<UserDoc>(USERS).findOne({ _id: String(userId) }, { projection: { user_type: 1 } });
    return user?.user_type ?? null;
  }

  /** The operator of a node (AD_NODE_OPERATORS names their username), or null when none is named or the account does not exist. */
  async operatorOf(nodeId: string): Promise<string | null> {
    const username = this.config.ads.nodeOperators[nodeId];
    if (!username) return null;
    const user = await this.store.collection<UserDoc>(USERS).findOne({ username_key: username.toLowerCase() }, { projection: { _id: 1 } });
    return user?._id ?? null;
  }

  async isBanned(nodeId: string): Promise<boolean> {
    const standing = await this.store.collection<NodeStandingDoc>(NODE_STANDINGS).findOne({ _id: String(nodeId) });
    return standing?.banned === true;
  }
}
