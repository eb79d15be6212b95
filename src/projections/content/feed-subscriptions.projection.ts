/**
 * `feed_subscriptions`: one document per subscription (POST /feeds/subscribe;
 * social-routes §7), `active` until cancelled. A cancel keeps the document
 * inactive (a re-subscribe on the same stream makes it active again), so the
 * poller and GET /feeds/subscriptions read only the active ones.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const FEED_SUBSCRIPTIONS = 'feed_subscriptions';

export interface FeedSubscriptionDoc extends Doc {
  user_id: string;
  url: string;
  community_id: string | null;
  auto_import: boolean;
  feed_title: string;
  active: boolean;
  last_fetched_at: string | null;
  /** the last poll's failure; null after a poll that read the feed */
  last_error: string | null;
  /** posts the poller made from this subscription's items, in all */
  items_imported: number;
  created_at: string;
}

export const feedSubscriptionsProjection = defineProjection({
  name: 'feed-subscriptions',
  version: 1,
  collections: [FEED_SUBSCRIPTIONS],
  indexes: [
    { collection: FEED_SUBSCRIPTIONS, spec: { keys: { user_id: 1, active: 1, created_at: -1 } } },
    { collection: FEED_SUBSCRIPTIONS, spec: { keys: { active: 1, auto_import: 1, created_at: 1 } } },
  ],
  on: {
    FeedSubscribed: (event, writer) => {
      const { id, user_id, url, community_id, auto_import, feed_title, fetched_at, at } = event.data;
      applyOnce(writer, FEED_SUBSCRIPTIONS, id, event, {
        $set: { user_id, url, community_id, auto_import, feed_title, active: true, last_fetched_at: fetched_at, last_error: null, created_at: at },
        $setOnInsert: { items_imported: 0 },
      });
    },
    FeedSubscriptionCancelled: (event, writer) => {
      applyOnce(writer, FEED_SUBSCRIPTIONS, event.data.id, event, { $set: { active: false } }, { upsert: false });
    },
    FeedSubscriptionPolled: (event, writer) => {
      const { id, fetched_at, items_imported, error } = event.data;
      applyOnce(writer, FEED_SUBSCRIPTIONS, id, event, { $set: { last_fetched_at: fetched_at, last_error: error }, $inc: { items_imported } }, { upsert: false });
    },
  },
});
