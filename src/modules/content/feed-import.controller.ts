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
import { FEED_BODY_SCHEMA, feedRequest, POST_CONTENT_MAX, TITLE_MAX } from './content.requests';
import { type FeedEntry, feedUrl, fetchFeedText, type ParsedFeed, parseFeed } from './feed-import';
import { escapeHtml } from '../common/html-escape';

const PREVIEW_ITEMS = 5;
const cut = (text: string, max: number): string => ([...text].length <= max ? text : [...text].slice(0, max).join(''));

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

  private async read(url: string): Promise<ParsedFeed> {
    return parseFeed(await fetchFeedText(feedUrl(url), { timeoutMs: this.config.feeds.fetchTimeoutMs, allowPrivate: this.config.feeds.allowPrivate }));
  }

  @Post('preview')
  @HttpCode(200)
  @OptionalViewer()
  @ReadBody(FEED_BODY_SCHEMA)
  @EnvelopeReply(200, PREVIEW, 'the feed’s title and first 5 items')
  @Refusal(400, 'the URL cannot be fetched (`Failed to fetch feed: …`: a non-public address, a time-out, not 200) or parsed (`Failed to parse feed: …`)')
  async preview(@Body() body: unknown): Promise<Envelope<{ feed_title: string; items: FeedEntry[] }>> {
    const feed = await this.read(feedRequest(body).url);
    return ok({
      feed_title: escapeHtml(feed.title),
      items: feed.items.slice(0, PREVIEW_ITEMS).map((item) => ({ ...item, title: escapeHtml(item.title), content: escapeHtml(cut(item.content, 500)) })),
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
      const title = cut(item.title.trim() || feed.title.trim() || 'Untitled', TITLE_MAX);
      const { post } = await this.commands.execute(
        new PublishPost(
          { authorId: user.id, title, content: cut(item.content, POST_CONTENT_MAX), contentType: 'text', community: request.communityId, fields: { link_url: item.link, source_channel: 'feed' } },
          context,
        ),
      );
      postIds.push(post.id);
    }
    return ok({ feed_title: escapeHtml(feed.title), items_fetched: feed.items.length, items_imported: postIds.length, post_ids: postIds });
  }
}
