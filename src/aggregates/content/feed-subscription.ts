/**
 * A user's subscription to another site's feed (POST /feeds/subscribe;
 * social-routes §7). The stream (`feedsub-<id>`) is keyed by the user and the
 * normalised URL, so the same user subscribing to the same URL lands on one
 * stream: concurrent subscribes serialise there and only the first records
 * `FeedSubscribed` (the others: 409). A cancelled subscription can be taken
 * out again on the same stream; the poller's deterministic post ids then
 * still recognise the items imported before.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export interface FeedSubscriptionRecord {
  id: string;
  user_id: string;
  url: string;
  community_id: string | null;
  auto_import: boolean;
  feed_title: string;
}

export type FeedSubscriptionEvent =
  /** `fetched_at`: when the URL was fetched and parsed to check it */
  | { type: 'FeedSubscribed'; data: FeedSubscriptionRecord & { fetched_at: string; at: string } }
  | { type: 'FeedSubscriptionCancelled'; data: { id: string; user_id: string; at: string } }
  /** one pass of the poller: how many new items became posts, or why the fetch failed */
  | { type: 'FeedSubscriptionPolled'; data: { id: string; user_id: string; fetched_at: string; items_imported: number; error: string | null } };

export type FeedSubscriptionState =
  | { status: 'none' }
  | { status: 'cancelled'; subscription: FeedSubscriptionRecord }
  | { status: 'active'; subscription: FeedSubscriptionRecord };

export type FeedSubscriptionCommand =
  | { kind: 'subscribe'; subscription: FeedSubscriptionRecord; fetchedAt: string }
  | { kind: 'cancel'; userId: string }
  | { kind: 'recordPoll'; fetchedAt: string; itemsImported: number; error: string | null };

export const ALREADY_SUBSCRIBED = 'Already subscribed to this feed';
export const SUBSCRIPTION_NOT_FOUND = 'Subscription not found';

export function feedSubscriptionStreamId(id: string): string {
  return `feedsub-${id}`;
}

export const feedSubscriptionDecider: Decider<FeedSubscriptionState, FeedSubscriptionCommand, FeedSubscriptionEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'FeedSubscribed': {
        const { id, user_id, url, community_id, auto_import, feed_title } = event.data;
        return { status: 'active', subscription: { id, user_id, url, community_id, auto_import, feed_title } };
      }
      case 'FeedSubscriptionCancelled':
        return state.status === 'active' ? { status: 'cancelled', subscription: state.subscription } : state;
      case 'FeedSubscriptionPolled':
        return state;
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'subscribe':
        if (state.status === 'active') throw new DomainError('conflict', ALREADY_SUBSCRIBED);
        return [{ type: 'FeedSubscribed', data: { ...command.subscription, fetched_at: command.fetchedAt, at } }];
      case 'cancel':
        // someone else's subscription is as unknown as a missing one: its existence is not disclosed
        if (state.status !== 'active' || state.subscription.user_id !== command.userId) throw new DomainError('not_found', SUBSCRIPTION_NOT_FOUND);
        return [{ type: 'FeedSubscriptionCancelled', data: { id: state.subscription.id, user_id: command.userId, at } }];
      case 'recordPoll':
        // a poll that finished after the cancel records nothing
        if (state.status !== 'active') return [];
        return [
          {
            type: 'FeedSubscriptionPolled',
            data: { id: state.subscription.id, user_id: state.subscription.user_id, fetched_at: command.fetchedAt, items_imported: command.itemsImported, error: command.error },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};
