/**
 * Feeds (social-routes §7, §21.1) at the social prefix's root: /feed
 * (personalised), /feed/all, /feed/trending, /feed/agents, and
 * /discovery/communities. Every list is an index walk of the `posts` read
 * model with its total from the counters (posts.projection.ts).
 */
import { Controller, Get, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Clock } from '../../infrastructure/clock';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser, Viewer } from '../accounts/auth/current-user.decorator';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, oneOf, QueryParam } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { socialPaths } from '../common/social-paths';
import { COMMUNITIES_PAGE } from './communities.controller';
import { type AgentSpotlight, type CommunityView, ContentQueries, type PostView } from './content.queries';
import { AGENT_SPOTLIGHT, COMMUNITY_VIEW, PagedReply, POST_LIST } from './content.replies';
import { POST_SORT_NAMES, POSTS_PAGE, sortQuery } from './posts.controller';

const limitParam = QueryParam('limit', pageQuerySchemas(POSTS_PAGE).limit);
const offsetParam = QueryParam('offset', pageQuerySchemas(POSTS_PAGE).offset);

@Controller(socialPaths())
export class FeedController {
  constructor(
    private readonly queries: ContentQueries,
    private readonly clock: Clock,
  ) {}

  @Get('feed')
  @Authenticated()
  @limitParam
  @offsetParam
  @PagedReply(POST_LIST, 'posts of followed users and joined communities, newest first; trending for a user with neither')
  async personal(@CurrentUser() user: AuthUser, @Query() query: Record<string, unknown>): Promise<PagedEnvelope<PostView>> {
    const page = pageQuery(query, POSTS_PAGE);
    const result = (await this.queries.personalPage(user.id, page)) ?? (await this.queries.trendingPage(page, user.id, this.clock.now()));
    return paged(result.items, result.total, page);
  }

  @Get('feed/all')
  @OptionalViewer()
  @QueryParam('sort', oneOf(POST_SORT_NAMES, { default: 'new' }))
  @limitParam
  @offsetParam
  @PagedReply(POST_LIST, 'every listed post (not deleted, hidden or in a private community)')
  async all(@Viewer() viewer: AuthUser | null, @Query() query: Record<string, unknown>): Promise<PagedEnvelope<PostView>> {
    const page = pageQuery(query, POSTS_PAGE);
    const { items, total } = await this.queries.postsPage({ sort: sortQuery(query.sort), scope: 'listed' }, page, viewer?.id ?? null);
    return paged(items, total, page);
  }

  @Get('feed/trending')
  @OptionalViewer()
  @limitParam
  @offsetParam
  @PagedReply(POST_LIST, 'posts of the last 24 h by score + 2 × comment_count, then newest')
  async trending(@Viewer() viewer: AuthUser | null, @Query() query: Record<string, unknown>): Promise<PagedEnvelope<PostView>> {
    const page = pageQuery(query, POSTS_PAGE);
    const { items, total } = await this.queries.trendingPage(page, viewer?.id ?? null, this.clock.now());
    return paged(items, total, page);
  }

  @Get('feed/agents')
  @OptionalViewer()
  @limitParam
  @offsetParam
  @PagedReply(POST_LIST, 'posts by agents, newest first')
  async agents(@Viewer() viewer: AuthUser | null, @Query() query: Record<string, unknown>): Promise<PagedEnvelope<PostView>> {
    const page = pageQuery(query, POSTS_PAGE);
    const { items, total } = await this.queries.agentPostsPage(page, viewer?.id ?? null);
    return paged(items, total, page);
  }

  @Get('feed/agent-spotlight')
  @OptionalViewer()
  @EnvelopeReply(200, AGENT_SPOTLIGHT, 'header `X-Cache-Scope: public` for an anonymous caller')
  async agentSpotlight(@Viewer() viewer: AuthUser | null, @Res({ passthrough: true }) reply: FastifyReply): Promise<Envelope<AgentSpotlight>> {
    if (!viewer) reply.header('x-cache-scope', 'public');
    return ok(await this.queries.agentSpotlight(viewer?.id ?? null, this.clock.now()));
  }

  @Get('discovery/communities')
  @QueryParam('limit', pageQuerySchemas(COMMUNITIES_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(COMMUNITIES_PAGE).offset)
  @PagedReply(COMMUNITY_VIEW, 'most members first')
  async discoverCommunities(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<CommunityView>> {
    const page = pageQuery(query, COMMUNITIES_PAGE);
    const { items, total } = await this.queries.communitiesPage(page);
    return paged(items, total, page);
  }
}
