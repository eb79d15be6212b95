/**
 * /feeds/preview and /feeds/import (social-routes §7): read another site's
 * feed (fetched with a time-out and the SSRF guard, parsed as RSS, Atom or
 * JSON Feed) and show its first items, or publish its items as the caller's
 * posts (`PublishPost`, source_channel `feed`).
 */
import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { EnvelopeReply, int, list, obj, orNull, ReadBody, Refusal, str } from '../common/openapi';
import { RequestContext } from '../common/request-context';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { socialPaths } from '../common/social-paths';
import { PublishPost } from './content.commands';
import { FEED_BODY_SCHEMA, feedRequest } from './content.requests';
import { cutText as cut, type FeedEntry, feedItemPost, type ParsedFeed, readFeed } from './feed-import';
import { escapeHtml } from '../common/html-escape';

const PREVIEW_ITEMS = 5;

const PREVIEW = obj({
  feed_title: str(),
  items: list(obj({ title: str(), link: orNull(str()), content: str({ description: 'at most 500 characters, HTML-escaped' }), published: orNull(str()) })),
});
const IMPORTED = obj({ feed_title: str(), items_fetched: int(), items_imported: int(), post_ids: list(str()) });

@Controller(socialPaths('feeds'))
export class FeedImportController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private read(url: string): Promise<ParsedFeed> {
    return readFeed(url, { timeoutMs: this.config.feeds.fetchTimeoutMs, allowPrivate: this.config.feeds.allowPrivate });
  }

  @Post('preview')
  @HttpCode(200)
  @OptionalViewer()
  @ReadBody(FEED_BODY_SCHEMA)
  @EnvelopeReply(200, PREVIEW, 'the feed’s title and first 5 items')
  @Refusal(400, 'the URL cannot be fetched (`Failed to fetch feed: …`: a non-public address, a time-out, not 200) or parsed (`Failed to parse feed: …`)')
  async preview(@Body() body: unknown): Promise<Envelope<{ feed_title: string; items: Omit<FeedEntry, 'guid'>[] }>> {
    const feed = await this.read(feedRequest(body).url);
    return ok({
      feed_title: escapeHtml(feed.title),
      items: feed.items.slice(0, PREVIEW_ITEMS).map((item) => ({ title: escapeHtml(item.title), link: item.link, content: escapeHtml(cut(item.content, 500)), published: item.published })),
    });
  }

  @Post('import')
  @RateLimited('post')
  @HttpCode(200)
  @Authenticated()
  @ReadBody(FEED_BODY_SCHEMA)
  @EnvelopeReply(200, IMPORTED, 'each item (up to `limit`) published as the caller’s post')
  @Refusal(400, 'as preview')
  async import(@CurrentUser() user: AuthUser, @Body() body: unknown, @RequestContext() context: CommandContext) {
    const request = feedRequest(body);
    const feed = await this.read(request.url);
    const postIds: string[] = [];
    for (const item of feed.items.slice(0, request.limit)) {
      const { post } = await this.commands.execute(new PublishPost(feedItemPost(feed, item, user.id, request.communityId), context));
      postIds.push(post.id);
    }
    return ok({ feed_title: escapeHtml(feed.title), items_fetched: feed.items.length, items_imported: postIds.length, post_ids: postIds });
  }
}
