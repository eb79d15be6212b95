/**
 * The user routes of the social platform (social-routes §2), under
 * /api/social and /social: the directory, profiles and their edits, handles,
 * the follow graph, the per-user read routes over the content and agents
 * read models, the data export and the anonymising deletion. `{id}` is a user
 * id or a username. An owner route acts on the TARGET for its owner or an
 * admin (the original always wrote the caller: §23).
 */
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Clock } from '../../infrastructure/clock';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser, Viewer } from '../accounts/auth/current-user.decorator';
import { isAdminRole, toUserView, type UserView } from '../accounts/accounts.queries';
import { USER_VIEW } from '../accounts/accounts.replies';
import type { CommandContext } from '../common/command-executor';
import { flag } from '../common/body-fields';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, oneOf, QueryParam, Refusal } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { AnonymizeUser, ChangeHandle, FollowUser, UnfollowUser, UpdateProfile } from './social.commands';
import { SocialQueries } from './social.queries';
import {
  ANONYMIZED,
  COMMENT,
  DATA_EXPORT,
  FOLLOWED,
  HANDLE,
  HANDLE_CHECK,
  KARMA,
  PagedReply,
  POST_WITH_AUTHOR,
  SKILL_BADGE,
  UNFOLLOWED,
  USER_WITH_FOLLOWING,
} from './social.replies';
import { HandleRequest, handleRule, UpdateProfileRequest, USER_TYPES } from './social.requests';
import { list } from '../common/openapi';

const USERS_PAGE = { defaultLimit: 25, cap: 100 };
const FOLLOW_PAGE = { defaultLimit: 50, cap: 100 };
type QueryString = Record<string, string | undefined>;

/** The owner, or an admin; anyone else is refused with the route's text. */
function ownerOrAdmin(caller: AuthUser, targetId: string, refusal: string): void {
  if (caller.id !== targetId && !isAdminRole(caller.role)) throw new DomainError('forbidden', refusal);
}

/** The handle as stored, or 400 with the rule's text. */
function validHandle(raw: string): string {
  const { handle, error } = handleRule(raw);
  if (error) throw new DomainError('invalid', error);
  return handle;
}

@Controller(socialPaths())
export class UsersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: SocialQueries,
    private readonly clock: Clock,
  ) {}

  @Get('users')
  @OptionalViewer()
  @PagedReply(USER_VIEW, 'banned users left out; highest karma first')
  @QueryParam('type', oneOf(USER_TYPES))
  @QueryParam('limit', pageQuerySchemas(USERS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(USERS_PAGE).offset)
  async list(@Query() query: QueryString): Promise<PagedEnvelope<UserView>> {
    const page = pageQuery(query, USERS_PAGE);
    const type = query.type?.trim() || null;
    if (type && !(USER_TYPES as readonly string[]).includes(type)) throw new DomainError('invalid', `type must be one of ${USER_TYPES.join(', ')}`);
    const { items, total } = await this.queries.listUsers(type, page);
    return paged(items, total, page);
  }

  @Get('handles/check')
  @EnvelopeReply(200, HANDLE_CHECK, 'an invalid handle answers `available: false` with the reason')
  @QueryParam('handle', { type: 'string' })
  @RateLimited('global')
  async checkHandle(@Query() query: QueryString): Promise<Envelope<{ available: boolean; handle: string; error?: string }>> {
    if (typeof query.handle !== 'string' || query.handle.trim() === '') throw new DomainError('invalid', 'handle is required');
    const { handle, error } = handleRule(query.handle);
    if (error) return ok({ available: false, handle, error });
    return ok({ available: !(await this.queries.handleTaken(handle)), handle });
  }

  @Get('users/:id')
  @OptionalViewer()
  @EnvelopeReply(200, USER_WITH_FOLLOWING)
  @Refusal(404, '`User not found`')
  async get(@Param('id') id: string, @Viewer() viewer: AuthUser | null): Promise<Envelope<UserView & { is_following?: boolean }>> {
    const user = await this.queries.user(id);
    const view = toUserView(user, viewer?.id === user.id);
    if (!viewer) return ok(view);
    return ok({ ...view, is_following: await this.queries.isFollowing(viewer.id, user.id) });
  }

  @Patch('users/:id')
  @Authenticated()
  @EnvelopeReply(200, USER_VIEW)
  @Refusal(403, "`Cannot edit another user's profile`")
  @Refusal(409, '`Handle already taken`')
  async update(
    @Param('id') id: string,
    @Body() body: UpdateProfileRequest,
    @CurrentUser() caller: AuthUser,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<UserView>> {
    const target = await this.queries.user(id);
    ownerOrAdmin(caller, target.id, "Cannot edit another user's profile");
    const handle = body.handle === undefined ? undefined : validHandle(body.handle);
    const changes = { display_name: body.display_name?.trim(), bio: body.bio, avatar_url: body.avatar_url };
    return ok(await this.commands.execute(new UpdateProfile({ userId: target.id, changes, handle, updatedBy: caller.id }, context)));
  }

  @Patch('users/:id/handle')
  @Authenticated()
  @EnvelopeReply(200, HANDLE)
  @Refusal(403, "`Cannot change another user's handle`")
  @Refusal(409, '`Handle already taken`')
  async changeHandle(
    @Param('id') id: string,
    @Body() body: HandleRequest,
    @CurrentUser() caller: AuthUser,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<{ handle: string }>> {
    const target = await this.queries.user(id);
    ownerOrAdmin(caller, target.id, "Cannot change another user's handle");
    return ok(await this.commands.execute(new ChangeHandle({ userId: target.id, handle: validHandle(body.handle) }, context)));
  }

  @Get('users/:id/posts')
  @OptionalViewer()
  @PagedReply(POST_WITH_AUTHOR, 'newest first; deleted and hidden posts left out')
  @QueryParam('limit', pageQuerySchemas(USERS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(USERS_PAGE).offset)
  async posts(@Param('id') id: string, @Query() query: QueryString): Promise<PagedEnvelope<Record<string, unknown>>> {
    const page = pageQuery(query, USERS_PAGE);
    const { items, total } = await this.queries.postsOf(await this.queries.user(id), page);
    return paged(items, total, page);
  }

  @Get('users/:id/comments')
  @OptionalViewer()
  @PagedReply(COMMENT, 'newest first; deleted and hidden comments left out')
  @QueryParam('limit', pageQuerySchemas(USERS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(USERS_PAGE).offset)
  async comments(@Param('id') id: string, @Query() query: QueryString): Promise<PagedEnvelope<Record<string, unknown>>> {
    const page = pageQuery(query, USERS_PAGE);
    const { items, total } = await this.queries.commentsOf((await this.queries.user(id)).id, page);
    return paged(items, total, page);
  }

  @Get('users/:id/karma')
  @OptionalViewer()
  @EnvelopeReply(200, KARMA, 'social-routes §21.3')
  @Refusal(404, '`User not found`')
  async karma(@Param('id') id: string): Promise<Envelope<Record<string, number>>> {
    const user = await this.queries.user(id);
    return ok({
      total: user.karma_score,
      post_karma: user.post_karma,
      comment_karma: user.comment_karma,
      task_karma: user.task_karma,
      completed_tasks: user.completed_tasks,
    });
  }

  @Get('users/:id/skills')
  @OptionalViewer()
  @EnvelopeReply(200, list(SKILL_BADGE))
  @Refusal(404, '`User not found`')
  async skills(@Param('id') id: string): Promise<Envelope<Record<string, unknown>[]>> {
    return ok(await this.queries.skillsOf((await this.queries.user(id)).id));
  }

  @Post('users/:id/follow')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, FOLLOWED)
  @Refusal(404, '`User not found`')
  async follow(@Param('id') id: string, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ followed: boolean }>> {
    const target = await this.queries.user(id);
    return ok(await this.commands.execute(new FollowUser({ followerId: caller.id, followerUsername: caller.username, followeeId: target.id }, context)));
  }

  @Delete('users/:id/follow')
  @Authenticated()
  @EnvelopeReply(200, UNFOLLOWED)
  @Refusal(404, '`User not found`')
  async unfollow(@Param('id') id: string, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ unfollowed: true }>> {
    const target = await this.queries.user(id);
    return ok(await this.commands.execute(new UnfollowUser({ followerId: caller.id, followeeId: target.id }, context)));
  }

  @Get('users/:id/followers')
  @OptionalViewer()
  @PagedReply(USER_VIEW, 'newest follow first')
  @QueryParam('limit', pageQuerySchemas(FOLLOW_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(FOLLOW_PAGE).offset)
  async followers(@Param('id') id: string, @Query() query: QueryString): Promise<PagedEnvelope<UserView>> {
    return this.graph(id, 'followers', query);
  }

  @Get('users/:id/following')
  @OptionalViewer()
  @PagedReply(USER_VIEW, 'newest follow first')
  @QueryParam('limit', pageQuerySchemas(FOLLOW_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(FOLLOW_PAGE).offset)
  async following(@Param('id') id: string, @Query() query: QueryString): Promise<PagedEnvelope<UserView>> {
    return this.graph(id, 'following', query);
  }

  private async graph(id: string, side: 'followers' | 'following', query: QueryString): Promise<PagedEnvelope<UserView>> {
    const page = pageQuery(query, FOLLOW_PAGE);
    const { items, total } = await this.queries.followGraph((await this.queries.user(id)).id, side, page);
    return paged(items, total, page);
  }

  @Get('users/:id/data/export')
  @Authenticated()
  @EnvelopeReply(200, DATA_EXPORT)
  @Refusal(403, "`Cannot export another user's data`")
  async exportData(@Param('id') id: string, @CurrentUser() caller: AuthUser): Promise<Envelope<Record<string, unknown>>> {
    const user = await this.queries.user(id);
    ownerOrAdmin(caller, user.id, "Cannot export another user's data");
    const [content, following, followers] = await Promise.all([
      this.queries.contentOf(user.id),
      this.queries.followIds(user.id, 'following'),
      this.queries.followIds(user.id, 'followers'),
    ]);
    return ok({ user: toUserView(user, true), ...content, following, followers, exported_at: this.clock.now().toISOString() });
  }

  @Delete('users/:id/data')
  @Authenticated()
  @QueryParam('erase_content', { type: 'boolean', description: 'also erase the bodies of their posts and comments (their content key is deleted); default false: the posts remain, anonymised' })
  @EnvelopeReply(200, ANONYMIZED, 'the account is anonymised in place and its personal data keys are deleted (crypto-shredding): no read model and no rebuild from the log shows its e-mail, coordinates, encounter texts or prompts again')
  @Refusal(400, '`erase_content must be a boolean`')
  @Refusal(403, "`Cannot delete another user's data`")
  async deleteData(
    @Param('id') id: string,
    @Query() query: { erase_content?: unknown },
    @CurrentUser() caller: AuthUser,
    @RequestContext() context: CommandContext,
  ): Promise<Envelope<{ anonymized: true; user_id: string; message: string }>> {
    const eraseContent = flag(query, 'erase_content') ?? false;
    const user = await this.queries.user(id);
    ownerOrAdmin(caller, user.id, "Cannot delete another user's data");
    return ok(await this.commands.execute(new AnonymizeUser({ userId: user.id, requestedBy: caller.id, eraseContent }, context)));
  }
}
