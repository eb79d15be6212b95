/**
 * Command handlers of the feed subscriptions (social-routes §7). The ids are
 * derived, never random: a subscription's from its user and normalised URL
 * (so one user's second subscribe to a URL meets the first on its stream),
 * an imported item's post from its subscription and the item's guid, link or
 * title (so the poller publishing an item again — a redelivery, a restart,
 * a second worker — is refused as `post already exists`).
 */
import { createHash } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { feedSubscriptionDecider, feedSubscriptionStreamId } from '../../aggregates/content/feed-subscription';
import { CommandExecutor } from '../common/command-executor';
import { CancelFeedSubscription, type FeedSubscriptionView, RecordFeedPoll, SubscribeToFeed } from './content.commands';
import { ContentQueries } from './content.queries';
import type { FeedEntry } from './feed-import';
import { feedSubscriptionView, FeedSubscriptionQueries } from './feed-subscriptions.queries';

const digest = (...parts: string[]): string => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 20);

/** The subscription of `userId` to `url` (already normalised by `feedUrl`). */
export const feedSubscriptionId = (userId: string, url: string): string => digest('feed-subscription', userId, url);

/** The post that imports `item` for the subscription: the same item always gives the same id. */
export const importedPostId = (subscriptionId: string, item: FeedEntry): string =>
  digest('feed-item', subscriptionId, item.guid ?? item.link ?? `${item.title}\n${item.published ?? ''}\n${item.content}`);

@CommandHandler(SubscribeToFeed)
export class SubscribeToFeedHandler implements ICommandHandler<SubscribeToFeed> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly content: ContentQueries,
    private readonly queries: FeedSubscriptionQueries,
  ) {}

  async execute({ payload, context }: SubscribeToFeed): Promise<FeedSubscriptionView> {
    const community = payload.communityId ? await this.content.community(payload.communityId) : null;
    const id = feedSubscriptionId(payload.userId, payload.url);
    const subscription = { id, user_id: payload.userId, url: payload.url, community_id: community?.id ?? null, auto_import: payload.autoImport, feed_title: payload.feedTitle };
    await this.executor.execute(feedSubscriptionDecider, feedSubscriptionStreamId(id), { kind: 'subscribe', subscription, fetchedAt: payload.fetchedAt }, context);
    const doc = await this.queries.byId(id);
    return doc
      ? feedSubscriptionView(doc)
      : feedSubscriptionView({ _id: id, ...subscription, active: true, last_fetched_at: payload.fetchedAt, last_error: null, items_imported: 0, created_at: payload.fetchedAt });
  }
}

@CommandHandler(CancelFeedSubscription)
export class CancelFeedSubscriptionHandler implements ICommandHandler<CancelFeedSubscription> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: CancelFeedSubscription): Promise<{ cancelled: true }> {
    await this.executor.execute(feedSubscriptionDecider, feedSubscriptionStreamId(payload.subscriptionId), { kind: 'cancel', userId: payload.userId }, context);
    return { cancelled: true };
  }
}

@CommandHandler(RecordFeedPoll)
export class RecordFeedPollHandler implements ICommandHandler<RecordFeedPoll> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: RecordFeedPoll): Promise<void> {
    const { subscriptionId, ...poll } = payload;
    await this.executor.execute(feedSubscriptionDecider, feedSubscriptionStreamId(subscriptionId), { kind: 'recordPoll', ...poll }, context, { readYourWrites: false });
  }
}
