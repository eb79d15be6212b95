/** Communities (social-routes §6) under /api/social/communities and /social/communities; {name} takes a name or an id. */
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser, Viewer } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, oneOf, QueryParam, ReadBody, Refusal } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { CreateCommunity, JoinCommunity, LeaveCommunity, SetCommunityRole, UpdateCommunity } from './content.commands';
import { type CommunityView, ContentQueries, type PostView, toCommunityView } from './content.queries';
import { COMMUNITY_VIEW, flagReply, MEMBERS, PagedReply, POST_LIST } from './content.replies';
import { COMMUNITY_BODY_SCHEMA, COMMUNITY_EDIT_BODY_SCHEMA, communityEditRequest, communityRequest, USER_ID_BODY_SCHEMA, userIdRequest } from './content.requests';
import { caller, POST_SORT_NAMES, POSTS_PAGE, sortQuery } from './posts.controller';

export const COMMUNITIES_PAGE = { defaultLimit: 50, cap: 100 };

@Controller(socialPaths('communities'))
export class CommunitiesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ContentQueries,
  ) {}

  @Get()
  @OptionalViewer()
  @QueryParam('limit', pageQuerySchemas(COMMUNITIES_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(COMMUNITIES_PAGE).offset)
  @PagedReply(COMMUNITY_VIEW, 'most members first')
  async list(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<CommunityView>> {
    const page = pageQuery(query, COMMUNITIES_PAGE);
    const { items, total } = await this.queries.communitiesPage(page);
    return paged(items, total, page);
  }

  @Post()
  @Authenticated()
  @ReadBody(COMMUNITY_BODY_SCHEMA)
  @EnvelopeReply(201, COMMUNITY_VIEW, 'the creator joins as admin; member_count 1')
  @Refusal(400, "`Community '<name>' already exists` (names are unique regardless of case)")
  async create(@CurrentUser() user: AuthUser, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<CommunityView>> {
    const community = await this.commands.execute(new CreateCommunity({ creatorId: user.id, ...communityRequest(body) }, context));
    return ok({ ...toCommunityView({ ...community, icon_url: null, banner_url: null, is_default: false, post_count: 0 }), is_member: true, role: 'admin' });
  }

  @Get(':name')
  @OptionalViewer()
  @EnvelopeReply(200, COMMUNITY_VIEW, '+is_member and role for a signed-in viewer')
  @Refusal(404, '`Community not found`')
  async get(@Viewer() viewer: AuthUser | null, @Param('name') name: string): Promise<Envelope<CommunityView>> {
    return ok(await this.queries.communityView(name, viewer?.id ?? null));
  }

  @Patch(':name')
  @Authenticated()
  @ReadBody(COMMUNITY_EDIT_BODY_SCHEMA)
  @EnvelopeReply(200, COMMUNITY_VIEW)
  @Refusal(403, '`Moderator access required`')
  @Refusal(404, '`Community not found`')
  async update(@CurrentUser() user: AuthUser, @Param('name') name: string, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<CommunityView>> {
    await this.commands.execute(new UpdateCommunity({ community: name, caller: caller(user), changes: communityEditRequest(body) }, context));
    return ok(await this.queries.communityView(name, user.id));
  }

  @Get(':name/posts')
  @OptionalViewer()
  @QueryParam('sort', oneOf(POST_SORT_NAMES, { default: 'new' }))
  @QueryParam('limit', pageQuerySchemas(POSTS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(POSTS_PAGE).offset)
  @PagedReply(POST_LIST)
  @Refusal(404, '`Community not found`')
  async posts(@Viewer() viewer: AuthUser | null, @Param('name') name: string, @Query() query: Record<string, unknown>): Promise<PagedEnvelope<PostView>> {
    const page = pageQuery(query, POSTS_PAGE);
    const sort = sortQuery(query.sort);
    const community = await this.queries.communityOr404(name);
    if (community.is_private && !(viewer && (await this.queries.membership(community.id, viewer.id)))) return paged([], 0, page);
    const { items, total } = await this.queries.postsPage({ sort, communityId: community.id, scope: 'visible' }, page, viewer?.id ?? null);
    return paged(items, total, page);
  }

  @Post(':name/join')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, flagReply('joined'), 'false when already a member')
  @Refusal(404, '`Community not found`')
  async join(@CurrentUser() user: AuthUser, @Param('name') name: string, @RequestContext() context: CommandContext): Promise<Envelope<{ joined: boolean }>> {
    return ok(await this.commands.execute(new JoinCommunity({ community: name, userId: user.id }, context)));
  }

  @Delete(':name/leave')
  @Authenticated()
  @EnvelopeReply(200, flagReply('left'), 'idempotent')
  @Refusal(404, '`Community not found`')
  async leave(@CurrentUser() user: AuthUser, @Param('name') name: string, @RequestContext() context: CommandContext): Promise<Envelope<{ left: true }>> {
    return ok(await this.commands.execute(new LeaveCommunity({ community: name, userId: user.id }, context)));
  }

  @Delete(':name/join')
  @Authenticated()
  @EnvelopeReply(200, flagReply('left'), 'SPEC §4.4’s spelling of leave')
  @Refusal(404, '`Community not found`')
  leaveBySpecPath(@CurrentUser() user: AuthUser, @Param('name') name: string, @RequestContext() context: CommandContext): Promise<Envelope<{ left: true }>> {
    return this.leave(user, name, context);
  }

  @Get(':name/members')
  @OptionalViewer()
  @QueryParam('limit', pageQuerySchemas(COMMUNITIES_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(COMMUNITIES_PAGE).offset)
  @PagedReply(MEMBERS)
  @Refusal(404, '`Community not found`')
  async members(@Param('name') name: string, @Query() query: Record<string, unknown>) {
    const page = pageQuery(query, COMMUNITIES_PAGE);
    const community = await this.queries.communityOr404(name);
    const { items, total } = await this.queries.membersPage(community.id, page);
    return paged(items, total, page);
  }

  @Post(':name/moderators')
  @HttpCode(200)
  @Authenticated()
  @ReadBody(USER_ID_BODY_SCHEMA)
  @EnvelopeReply(200, flagReply('promoted'))
  @Refusal(403, '`Admin access required`')
  @Refusal(404, '`Community not found`')
  async promote(@CurrentUser() user: AuthUser, @Param('name') name: string, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<{ promoted: true }>> {
    await this.commands.execute(new SetCommunityRole({ community: name, caller: caller(user), userId: userIdRequest(body), role: 'moderator' }, context));
    return ok({ promoted: true });
  }

  @Delete(':name/moderators/:userId')
  @Authenticated()
  @EnvelopeReply(200, flagReply('demoted'), 'idempotent: the role goes back to member')
  @Refusal(403, '`Admin access required`')
  @Refusal(404, '`Community not found`')
  async demote(
    @CurrentUser() user: AuthUser,
    @Param('name') name: string,
    @Param('userId') userId: string,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<{ demoted: true }>> {
    await this.commands.execute(new SetCommunityRole({ community: name, caller: caller(user), userId, role: 'member' }, context));
    return ok({ demoted: true });
  }
}
