/**
 * The feed poller (social-routes §7, POST /feeds/subscribe): every
 * FEED_POLL_INTERVAL_MS (default 15 minutes; 0: off) it reads each active
 * auto-import subscription's feed and publishes the items it has not
 * published yet as the subscriber's posts (`PublishPost`, source_channel
 * `feed`), then records the pass (`RecordFeedPoll`: when, how many, or why
 * the fetch failed).
 *
 * Idempotent by construction: an item's post id is derived from the
 * subscription and the item's guid, link or text (importedPostId), so an item
 * already published — by an earlier pass, a pass interrupted by a restart,
 * another worker — is refused on its stream as `post already exists` and
 * skipped. Background only (an unref'd timer), one pass at a time, and never
 * on a regional node: it replays central's log and writes nothing of its own.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { Clock } from '../infrastructure/clock';
import { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import type { FeedSubscriptionDoc } from '../projections/content/feed-subscriptions.projection';
import { PublishPost, RecordFeedPoll } from '../modules/content/content.commands';
import { feedItemPost, readFeed } from '../modules/content/feed-import';
import { importedPostId } from '../modules/content/feed-subscriptions.handlers';
import { FeedSubscriptionQueries } from '../modules/content/feed-subscriptions.queries';

const PAGE = 100;
/** the newest items of a feed a pass looks at (the /feeds/import cap) */
export const ITEMS_PER_PASS = 50;

@Injectable()
export class FeedPoller implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('FeedPoller');
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: FeedSubscriptionQueries,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
    private readonly lifecycle: PlatformLifecycle,
  ) {}

  onApplicationBootstrap(): void {
    // not on a regional node either: it replays central's log, where central's poller imports
    if (this.config.feeds.pollIntervalMs === 0 || !this.lifecycle.writesInBackground()) return;
    this.timer = setInterval(() => {
      this.polling ??= this.poll()
        .catch((error: unknown) => this.logger.warn(`feed poll failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (this.polling = null));
    }, this.config.feeds.pollIntervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.polling;
  }

  /** One pass over every active auto-import subscription. */
  async poll(): Promise<void> {
    let after: string | null = null;
    for (;;) {
      const subscriptions = await this.queries.autoImportPage(after, PAGE);
      for (const subscription of subscriptions) await this.pollOne(subscription);
      if (subscriptions.length < PAGE) return;
      after = subscriptions[subscriptions.length - 1]._id;
    }
  }

  /** Reads one subscription's feed and publishes its new items; how many were new. */
  async pollOne(subscription: FeedSubscriptionDoc): Promise<number> {
    const context = { actor: 'system:feed-poller', correlationId: `feed-poll:${subscription._id}:${this.clock.now().toISOString()}`, causationId: null };
    let imported = 0;
    let failure: string | null = null;
    try {
      const feed = await readFeed(subscription.url, { timeoutMs: this.config.feeds.fetchTimeoutMs, allowPrivate: this.config.feeds.allowPrivate });
      // oldest first, so the subscriber's posts come out in the feed's order
      for (const item of feed.items.slice(0, ITEMS_PER_PASS).reverse()) {
        const post = { ...feedItemPost(feed, item, subscription.user_id, subscription.community_id), postId: importedPostId(subscription._id, item) };
        if (await this.publishOnce(new PublishPost(post, context))) imported++;
      }
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind !== 'invalid') throw error;
      failure = error.message;
    }
    await this.commands.execute(new RecordFeedPoll({ subscriptionId: subscription._id, fetchedAt: this.clock.now().toISOString(), itemsImported: imported, error: failure }, context));
    return imported;
  }

  /** Publishes the post unless its id was published before: whether it is new. */
  private async publishOnce(command: PublishPost): Promise<boolean> {
    try {
      await this.commands.execute(command);
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'conflict') return false;
      throw error;
    }
  }
}
