/**
 * Posts (social-routes §4) and a post's comments (§5) under /api/social/posts
 * and /social/posts: list, publish, read, edit, delete, vote, likes, pin,
 * lock, report, comments. Reads personalise for a signed-in viewer
 * (`user_vote`); writes act as the credential's user.
 */
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { ReportRecord } from '../../aggregates/content/report';
import { DomainError } from '../../aggregates/shared/domain-error';
import type { PostSort } from '../../projections/content/posts.projection';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser, Viewer } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, oneOf, QueryParam, ReadBody, Refusal, str } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { socialPaths } from '../common/social-paths';
import { CastVote, DeletePost, EditPost, FileReport, PostComment, PublishPost, TogglePostLock, TogglePostPin } from './content.commands';
import { type CommentView, ContentQueries, type PostView, type VoterView } from './content.queries';
import { COMMENT_LIST, COMMENT_VIEW, flagReply, PagedReply, POST_LIST, POST_VIEW, REPORT_VIEW, VOTE_RESULT, VOTERS } from './content.replies';
import {
  COMMENT_BODY_SCHEMA,
  commentRequest,
  POST_BODY_SCHEMA,
  POST_EDIT_BODY_SCHEMA,
  postEditRequest,
  postRequest,
  REPORT_BODY_SCHEMA,
  reportRequest,
} from './content.requests';

export const POSTS_PAGE = { defaultLimit: 25, cap: 100 };
export const POST_SORT_NAMES: readonly PostSort[] = ['new', 'top', 'hot', 'discussed'];

/** `?sort=` of the post lists (§21.1); default `new`. */
export function sortQuery(value: unknown): PostSort {
  if (value === undefined || value === '') return 'new';
  if (typeof value === 'string' && (POST_SORT_NAMES as readonly string[]).includes(value)) return value as PostSort;
  throw new DomainError('invalid', `sort must be one of ${POST_SORT_NAMES.join(', ')}`);
}

export const caller = (user: AuthUser) => ({ userId: user.id, role: user.role });

@Controller(socialPaths('posts'))
export class PostsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ContentQueries,
  ) {}

  @Get()
  @OptionalViewer()
  @QueryParam('sort', oneOf(POST_SORT_NAMES, { default: 'new' }))
  @QueryParam('community', str({ description: 'a community name; an unknown one lists nothing' }))
  @QueryParam('limit', pageQuerySchemas(POSTS_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(POSTS_PAGE).offset)
  @PagedReply(POST_LIST, 'deleted and hidden posts left out')
  async list(@Viewer() viewer: AuthUser | null, @Query() query: Record<string, unknown>): Promise<PagedEnvelope<PostView>> {
    const page = pageQuery(query, POSTS_PAGE);
    const sort = sortQuery(query.sort);
    let communityId: string | null = null;
    if (typeof query.community === 'string' && query.community !== '') {
      const community = await this.queries.community(query.community);
      if (!community) return paged([], 0, page);
      communityId = community.id;
    }
    const { items, total } = await this.queries.postsPage({ sort, communityId, scope: 'visible' }, page, viewer?.id ?? null);
    return paged(items, total, page);
  }

  @Post()
  @RateLimited('post')
  @Authenticated()
  @ReadBody(POST_BODY_SCHEMA)
  @EnvelopeReply(201, POST_VIEW)
  async publish(@CurrentUser() user: AuthUser, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<PostView>> {
    const request = postRequest(body);
    const { post } = await this.commands.execute(
      new PublishPost(
        { authorId: user.id, title: request.fields.title, content: request.fields.content, contentType: request.fields.content_type, community: request.community, fields: request.fields },
        context,
      ),
    );
    return ok(await this.queries.shapeOutcome(post, user.id));
  }

  @Get(':id')
  @OptionalViewer()
  @EnvelopeReply(200, POST_VIEW)
  @Refusal(404, '`Post not found` (also once deleted)')
  async get(@Viewer() viewer: AuthUser | null, @Param('id') id: string): Promise<Envelope<PostView>> {
    return ok(await this.queries.postById(id, viewer?.id ?? null));
  }

  @Patch(':id')
  @Authenticated()
  @ReadBody(POST_EDIT_BODY_SCHEMA)
  @EnvelopeReply(200, POST_VIEW)
  @Refusal(403, "`Cannot edit another user's post`")
  @Refusal(404, '`Post not found`')
  async edit(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<PostView>> {
    const post = await this.commands.execute(new EditPost({ postId: id, caller: caller(user), changes: postEditRequest(body) }, context));
    return ok(await this.queries.shapeOutcome(post, user.id));
  }

  @Delete(':id')
  @Authenticated()
  @EnvelopeReply(200, flagReply('deleted'))
  @Refusal(403, "`Cannot delete another user's post`")
  @Refusal(404, '`Post not found`')
  async remove(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ deleted: true }>> {
    return ok(await this.commands.execute(new DeletePost({ postId: id, caller: caller(user), by: 'author' }, context)));
  }

  @Post(':id/upvote')
  @RateLimited('vote')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, VOTE_RESULT, '§21.4: a first vote `voted`, the same direction again `removed`, the other `changed`')
  @Refusal(404, '`post not found`')
  upvote(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext) {
    return this.vote(user, id, 'up', context);
  }

  @Post(':id/downvote')
  @RateLimited('vote')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, VOTE_RESULT, '§21.4')
  @Refusal(404, '`post not found`')
  downvote(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext) {
    return this.vote(user, id, 'down', context);
  }

  @Delete(':id/vote')
  @Authenticated()
  @EnvelopeReply(200, flagReply('removed'), 'idempotent, also with no vote')
  @Refusal(404, '`post not found`')
  async unvote(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ removed: true }>> {
    await this.commands.execute(new CastVote({ targetType: 'post', targetId: id, voterId: user.id, direction: 'clear' }, context));
    return ok({ removed: true });
  }

  private async vote(user: AuthUser, id: string, direction: 'up' | 'down', context: CommandContext) {
    return ok(await this.commands.execute(new CastVote({ targetType: 'post', targetId: id, voterId: user.id, direction }, context)));
  }

  @Get(':id/likes')
  @OptionalViewer()
  @EnvelopeReply(200, VOTERS, 'the upvoters, no meta')
  async likes(@Param('id') id: string): Promise<Envelope<VoterView[]>> {
    return ok(await this.queries.likes('post', id));
  }

  @Post(':id/pin')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, flagReply('pinned'), 'toggles')
  @Refusal(403, '`Moderator access required`: neither a global moderator nor an admin or moderator of the post’s community')
  @Refusal(404, '`Post not found`')
  async pin(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ pinned: boolean }>> {
    return ok(await this.commands.execute(new TogglePostPin({ postId: id, caller: caller(user) }, context)));
  }

  @Post(':id/lock')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, flagReply('locked'), 'toggles; a locked post refuses new top-level comments')
  @Refusal(403, '`Moderator access required`')
  @Refusal(404, '`Post not found`')
  async lock(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ locked: boolean }>> {
    return ok(await this.commands.execute(new TogglePostLock({ postId: id, caller: caller(user) }, context)));
  }

  @Post(':id/report')
  @Authenticated()
  @ReadBody(REPORT_BODY_SCHEMA)
  @EnvelopeReply(201, REPORT_VIEW, 'no de-duplication; the post is not checked')
  async report(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<ReportRecord>> {
    return ok(await this.commands.execute(new FileReport({ reporterId: user.id, targetType: 'post', targetId: id, ...reportRequest(body) }, context)));
  }

  @Get(':id/comments')
  @OptionalViewer()
  @QueryParam('sort', oneOf(['new', 'top'], { default: 'new', description: 'new: oldest first; top: highest score first' }))
  @EnvelopeReply(200, COMMENT_LIST, 'flat, no pagination; deleted and hidden comments left out')
  async comments(@Param('id') id: string, @Query('sort') sort: unknown): Promise<Envelope<CommentView[]>> {
    if (sort !== undefined && sort !== '' && sort !== 'new' && sort !== 'top') throw new DomainError('invalid', 'sort must be new or top');
    return ok(await this.queries.commentsOf(id, sort === 'top' ? 'top' : 'new'));
  }

  @Post(':id/comments')
  @RateLimited('comment')
  @Authenticated()
  @ReadBody(COMMENT_BODY_SCHEMA)
  @EnvelopeReply(201, COMMENT_VIEW)
  @Refusal(403, '`Post is locked` (moderators may still comment)')
  @Refusal(404, '`Post not found`')
  async comment(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<CommentView>> {
    const { content, parentId } = commentRequest(body);
    const comment = await this.commands.execute(new PostComment({ authorId: user.id, role: user.role, content, postId: id, parentId, checkLock: true }, context));
    return ok(await this.queries.shapeComment(comment));
  }
}
