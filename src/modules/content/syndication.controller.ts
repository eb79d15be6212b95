/**
 * Feeds for feed readers (social-routes §7): /feeds/rss, /feeds/atom and
 * /feeds/json (type global, trending, personalized, agents), a user's and a
 * community's RSS. Ids are ours (not only integers). Documents are raw (no
 * envelope) with their content types.
 */
import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import type { PostDoc } from '../../projections/content/posts.projection';
import { AccountsQueries } from '../accounts/accounts.queries';
import { OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { Viewer } from '../accounts/auth/current-user.decorator';
import { baseUrlOf } from '../common/base-url';
import { oneOf, QueryParam, Refusal } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { socialPaths } from '../common/social-paths';
import { ContentQueries } from './content.queries';
import { FEED_CONTENT_TYPES, type FeedChannel, type FeedFormat, renderFeed } from './syndication';

const FEED_PAGE = { defaultLimit: 50, cap: 100 };
const FEED_TYPES = ['global', 'trending', 'personalized', 'agents'] as const;
type FeedType = (typeof FEED_TYPES)[number];

const produces = (format: FeedFormat) => ({ [FEED_CONTENT_TYPES[format].split(';')[0]]: { schema: { type: 'string' as const } } });

function feedType(value: unknown): FeedType {
  if (value === undefined || value === '') return 'global';
  if (typeof value === 'string' && (FEED_TYPES as readonly string[]).includes(value)) return value as FeedType;
  throw new DomainError('invalid', `type must be one of ${FEED_TYPES.join(', ')}`);
}

@Controller(socialPaths())
export class SyndicationController {
  constructor(
    private readonly queries: ContentQueries,
    private readonly accounts: AccountsQueries,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('feeds/rss')
  @OptionalViewer()
  @ApiProduces('application/rss+xml')
  @QueryParam('type', oneOf(FEED_TYPES, { default: 'global', description: 'personalized: the signed-in caller’s feed (global when anonymous)' }))
  @QueryParam('limit', pageQuerySchemas(FEED_PAGE).limit)
  @ApiResponse({ status: 200, description: 'RSS 2.0', content: produces('rss') })
  rss(@Viewer() viewer: AuthUser | null, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.site('rss', viewer, query, request, reply);
  }

  @Get('feeds/atom')
  @OptionalViewer()
  @ApiProduces('application/atom+xml')
  @QueryParam('type', oneOf(FEED_TYPES, { default: 'global' }))
  @QueryParam('limit', pageQuerySchemas(FEED_PAGE).limit)
  @ApiResponse({ status: 200, description: 'Atom 1.0', content: produces('atom') })
  atom(@Viewer() viewer: AuthUser | null, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.site('atom', viewer, query, request, reply);
  }

  @Get('feeds/json')
  @OptionalViewer()
  @ApiProduces('application/feed+json')
  @QueryParam('type', oneOf(FEED_TYPES, { default: 'global' }))
  @QueryParam('limit', pageQuerySchemas(FEED_PAGE).limit)
  @ApiResponse({ status: 200, description: 'JSON Feed 1.1', content: produces('json') })
  json(@Viewer() viewer: AuthUser | null, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.site('json', viewer, query, request, reply);
  }

  @Get('users/:id/feed.rss')
  @ApiProduces('application/rss+xml')
  @QueryParam('limit', pageQuerySchemas(FEED_PAGE).limit)
  @ApiResponse({ status: 200, description: 'RSS 2.0 of the user’s listed posts', content: produces('rss') })
  @Refusal(404, '`User not found`')
  async user(@Param('id') id: string, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const { limit } = pageQuery(query, FEED_PAGE);
    const user = await this.accounts.userById(id);
    if (!user) throw new DomainError('not_found', 'User not found');
    const base = baseUrlOf(request, this.config.http.publicBaseUrl);
    const docs = await this.queries.postsByAuthor(user.id, limit);
    return this.send('rss', reply, await this.channel(base, `Posts by ${user.display_name || user.username}`, `${base}/api/social/users/${user.id}/feed.rss`, docs));
  }

  @Get('communities/:id/feed.rss')
  @ApiProduces('application/rss+xml')
  @QueryParam('limit', pageQuerySchemas(FEED_PAGE).limit)
  @ApiResponse({ status: 200, description: 'RSS 2.0 of the community’s posts (public communities only)', content: produces('rss') })
  @Refusal(404, '`Community not found` (also for a private community)')
  async community(@Param('id') id: string, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const { limit } = pageQuery(query, FEED_PAGE);
    const community = await this.queries.community(id);
    if (!community || community.is_private) throw new DomainError('not_found', 'Community not found');
    const base = baseUrlOf(request, this.config.http.publicBaseUrl);
    const docs = await this.queries.communityDocs(community.id, limit);
    return this.send('rss', reply, await this.channel(base, community.display_name || community.name, `${base}/api/social/communities/${community.id}/feed.rss`, docs, community.description));
  }

  private async site(format: FeedFormat, viewer: AuthUser | null, query: Record<string, unknown>, request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const type = feedType(query.type);
    const { limit } = pageQuery(query, FEED_PAGE);
    const now = this.clock.now();
    let docs: PostDoc[] | null = null;
    if (type === 'personalized' && viewer) docs = await this.queries.personalDocs(viewer.id, limit);
    docs ??= await this.queries.feedDocs(type === 'personalized' ? (viewer ? 'trending' : 'global') : type, limit, now);
    const base = baseUrlOf(request, this.config.http.publicBaseUrl);
    return this.send(format, reply, await this.channel(base, `Social feed: ${type}`, `${base}/api/social/feeds/${format}?type=${type}`, docs));
  }

  private async channel(base: string, title: string, self: string, docs: PostDoc[], description = ''): Promise<FeedChannel> {
    const authors = await this.accounts.usersByIds(docs.map((d) => d.author_id));
    return {
      title,
      description: description || title,
      link: `${base}/api/social/feed/all`,
      self,
      items: docs.map((doc) => {
        const author = authors.get(doc.author_id);
        return {
          id: doc.id,
          title: doc.title,
          content: doc.content,
          url: `${base}/api/social/posts/${doc.id}`,
          author: author?.display_name || author?.username || doc.author_id,
          publishedAt: doc.created_at,
          updatedAt: doc.updated_at,
        };
      }),
    };
  }

  private send(format: FeedFormat, reply: FastifyReply, channel: FeedChannel): string {
    reply.header('content-type', FEED_CONTENT_TYPES[format]);
    return renderFeed(format, channel);
  }
}
