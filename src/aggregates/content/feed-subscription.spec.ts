import { deciderKit } from '../../../test/support/decider-kit';
import {
  ALREADY_SUBSCRIBED,
  feedSubscriptionDecider,
  type FeedSubscriptionCommand,
  type FeedSubscriptionEvent,
  type FeedSubscriptionRecord,
  SUBSCRIPTION_NOT_FOUND,
} from './feed-subscription';

const now = new Date('2026-11-24T10:00:00.000Z');
const { given } = deciderKit(feedSubscriptionDecider, now);

const record: FeedSubscriptionRecord = { id: 's1', user_id: 'ann', url: 'https://example.com/feed', community_id: null, auto_import: true, feed_title: 'Example' };
const subscribe: FeedSubscriptionCommand = { kind: 'subscribe', subscription: record, fetchedAt: '2026-11-24T09:59:59.000Z' };
const subscribed: FeedSubscriptionEvent = { type: 'FeedSubscribed', data: { ...record, fetched_at: '2026-11-24T09:00:00.000Z', at: '2026-11-24T09:00:00.000Z' } };
const cancelled: FeedSubscriptionEvent = { type: 'FeedSubscriptionCancelled', data: { id: 's1', user_id: 'ann', at: '2026-11-24T09:30:00.000Z' } };
const poll: FeedSubscriptionCommand = { kind: 'recordPoll', fetchedAt: now.toISOString(), itemsImported: 2, error: null };

describe('feed subscription', () => {
  it('given nothing, when subscribing, then FeedSubscribed is recorded', () =>
    given().when(subscribe).then({ type: 'FeedSubscribed', data: { ...record, fetched_at: '2026-11-24T09:59:59.000Z', at: now.toISOString() } }));

  it('given an active subscription, when subscribing again, then it is refused as a conflict', () =>
    given(subscribed).when(subscribe).thenRefused('conflict', ALREADY_SUBSCRIBED));

  it('given a cancelled subscription, when subscribing again, then it is active again', () =>
    expect(given(subscribed, cancelled).when(subscribe).state()).toMatchObject({ status: 'active' }));

  it('given an active subscription, when its owner cancels, then FeedSubscriptionCancelled is recorded', () =>
    given(subscribed).when({ kind: 'cancel', userId: 'ann' }).then({ type: 'FeedSubscriptionCancelled', data: { id: 's1', user_id: 'ann', at: now.toISOString() } }));

  it('given an active subscription, when someone else cancels, then it is not found', () =>
    given(subscribed).when({ kind: 'cancel', userId: 'bob' }).thenRefused('not_found', SUBSCRIPTION_NOT_FOUND));

  it('given a cancelled subscription, when cancelling again, then it is not found', () =>
    given(subscribed, cancelled).when({ kind: 'cancel', userId: 'ann' }).thenRefused('not_found', SUBSCRIPTION_NOT_FOUND));

  it('given an active subscription, when a poll is recorded, then FeedSubscriptionPolled is recorded', () =>
    given(subscribed).when(poll).then({ type: 'FeedSubscriptionPolled', data: { id: 's1', user_id: 'ann', fetched_at: now.toISOString(), items_imported: 2, error: null } }));

  it('given a cancelled subscription, when a late poll is recorded, then nothing is recorded', () => given(subscribed, cancelled).when(poll).thenNothing());
});
