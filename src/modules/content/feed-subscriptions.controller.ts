/**
 * Feed subscriptions (social-routes §7): POST /feeds/subscribe checks the URL
 * by fetching and parsing it once (the guarded fetch of /feeds/import), then
 * records the subscription; the feed poller (src/sagas/feed-poller.sweeper.ts)
 * imports new items of the auto-import ones. The caller lists and cancels
 * their own.
 */
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SUBSCRIPTION_NOT_FOUND } from '../../aggregates/content/feed-subscription';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { bool, EnvelopeReply, int, obj, orNull, QueryParam, ReadBody, Refusal, str } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { CancelFeedSubscription, type FeedSubscriptionView, SubscribeToFeed } from './content.commands';
import { PagedReply } from './content.replies';
import { FEED_SUBSCRIBE_BODY_SCHEMA, feedSubscribeRequest } from './content.requests';
import { feedUrl, readFeed } from './feed-import';
import { FeedSubscriptionQueries } from './feed-subscriptions.queries';

const SUBSCRIPTIONS_PAGE = { defaultLimit: 20, cap: 100 };

export const FEED_SUBSCRIPTION = obj({
  id: str(),
  user_id: str(),
  url: str(),
  community_id: orNull(str()),
  auto_import: bool(),
  feed_title: str({ description: 'HTML-escaped' }),
  last_fetched_at: orNull(str()),
  last_error: orNull(str({ description: 'why the last poll could not read the feed' })),
  items_imported: int({ description: 'posts the poller made from it' }),
  created_at: str(),
});

@Controller(socialPaths('feeds'))
@Authenticated()
export class FeedSubscriptionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: FeedSubscriptionQueries,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('subscribe')
  @HttpCode(201)
  @ReadBody(FEED_SUBSCRIBE_BODY_SCHEMA)
  @EnvelopeReply(201, FEED_SUBSCRIPTION, 'the subscription; the URL was fetched and parsed once')
  @Refusal(400, '`url required`; the URL cannot be fetched (`Failed to fetch feed: …`) or parsed (`Failed to parse feed: …`)')
  @Refusal(409, '`Already subscribed to this feed` (the same user and URL)')
  async subscribe(@CurrentUser() user: AuthUser, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<FeedSubscriptionView>> {
    const request = feedSubscribeRequest(body);
    const url = feedUrl(request.url).href;
    const feed = await readFeed(url, { timeoutMs: this.config.feeds.fetchTimeoutMs, allowPrivate: this.config.feeds.allowPrivate });
    const fetchedAt = this.clock.now().toISOString();
    return ok(
      await this.commands.execute(new SubscribeToFeed({ userId: user.id, url, communityId: request.communityId, autoImport: request.autoImport, feedTitle: feed.title, fetchedAt }, context)),
    );
  }

  @Get('subscriptions')
  @QueryParam('limit', pageQuerySchemas(SUBSCRIPTIONS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(SUBSCRIPTIONS_PAGE).offset)
  @PagedReply(FEED_SUBSCRIPTION, "the caller's subscriptions, newest first")
  async list(@CurrentUser() user: AuthUser, @Query() query: Record<string, unknown>): Promise<PagedEnvelope<FeedSubscriptionView>> {
    const page = pageQuery(query, SUBSCRIPTIONS_PAGE);
    const { items, total } = await this.queries.ofUser(user.id, page);
    return paged(items, total, page);
  }

  @Delete('subscriptions/:id')
  @EnvelopeReply(200, obj({ cancelled: { const: true } }), 'the poller no longer reads it; posts it imported stay')
  @Refusal(404, `\`${SUBSCRIPTION_NOT_FOUND}\` (also someone else's)`)
  async cancel(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ cancelled: true }>> {
    return ok(await this.commands.execute(new CancelFeedSubscription({ subscriptionId: id, userId: user.id }, context)));
  }
}
