/**
 * Reads of the feed subscriptions (`feed_subscriptions`; social-routes §7):
 * a user's list for GET /feeds/subscriptions, one by id, and the active
 * auto-import ones the poller walks.
 */
import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { FEED_SUBSCRIPTIONS, type FeedSubscriptionDoc } from '../../projections/content/feed-subscriptions.projection';
import type { Page } from '../common/paging';
import type { FeedSubscriptionView } from './content.commands';
import { escapeHtml } from '../common/html-escape';

export function feedSubscriptionView(doc: FeedSubscriptionDoc): FeedSubscriptionView {
  return {
    id: doc._id,
    user_id: doc.user_id,
    url: doc.url,
    community_id: doc.community_id,
    auto_import: doc.auto_import,
    feed_title: escapeHtml(doc.feed_title),
    last_fetched_at: doc.last_fetched_at,
    last_error: doc.last_error,
    items_imported: doc.items_imported,
    created_at: doc.created_at,
  };
}

@Injectable()
export class FeedSubscriptionQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  private get docs() {
    return this.store.collection<FeedSubscriptionDoc>(FEED_SUBSCRIPTIONS);
  }

  /** The user's active subscriptions, newest first, and how many there are. */
  async ofUser(userId: string, page: Page): Promise<{ items: FeedSubscriptionView[]; total: number }> {
    const filter = { user_id: userId, active: true };
    const [docs, total] = await Promise.all([this.docs.find(filter, { sort: { created_at: -1, _id: 1 }, skip: page.offset, limit: page.limit }), this.docs.countDocuments(filter)]);
    return { items: docs.map(feedSubscriptionView), total };
  }

  async byId(id: string): Promise<FeedSubscriptionDoc | null> {
    return this.docs.findOne({ _id: id });
  }

  /** Up to `limit` active auto-import subscriptions after the one with id `after` (oldest first): the poller's pages. */
  async autoImportPage(after: string | null, limit: number): Promise<FeedSubscriptionDoc[]> {
    const filter = after === null ? { active: true, auto_import: true } : { active: true, auto_import: true, _id: { $gt: after } };
    return this.docs.find(filter, { sort: { _id: 1 }, limit });
  }
}
