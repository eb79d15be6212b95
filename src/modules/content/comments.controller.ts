/** Comments by id (social-routes §5) under /api/social/comments and /social/comments: reply, edit, delete, vote, likes, report. */
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { ReportRecord } from '../../aggregates/content/report';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { EnvelopeReply, ReadBody, Refusal } from '../common/openapi';
import { RequestContext } from '../common/request-context';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { socialPaths } from '../common/social-paths';
import { CastVote, DeleteComment, EditComment, FileReport, PostComment } from './content.commands';
import { type CommentView, ContentQueries, type VoterView } from './content.queries';
import { COMMENT_VIEW, flagReply, REPORT_VIEW, VOTE_RESULT, VOTERS } from './content.replies';
import { COMMENT_BODY_SCHEMA, COMMENT_EDIT_BODY_SCHEMA, commentRequest, REPORT_BODY_SCHEMA, reportRequest } from './content.requests';
import { caller } from './posts.controller';

@Controller(socialPaths('comments'))
export class CommentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ContentQueries,
  ) {}

  @Post(':id/reply')
  @RateLimited('comment')
  @Authenticated()
  @ReadBody(COMMENT_BODY_SCHEMA)
  @EnvelopeReply(201, COMMENT_VIEW, 'the parent is {id}; the post’s lock is not checked here')
  @Refusal(404, '`Comment not found`')
  async reply(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<CommentView>> {
    const { content } = commentRequest(body);
    const comment = await this.commands.execute(new PostComment({ authorId: user.id, role: user.role, content, postId: null, parentId: id, checkLock: false }, context));
    return ok(await this.queries.shapeComment(comment));
  }

  @Patch(':id')
  @Authenticated()
  @ReadBody(COMMENT_EDIT_BODY_SCHEMA)
  @EnvelopeReply(200, COMMENT_VIEW, 'empty content leaves it unchanged')
  @Refusal(403, "`Cannot edit another user's comment`")
  @Refusal(404, '`Comment not found`')
  async edit(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<CommentView>> {
    const { content } = commentRequest(body, false);
    const comment = await this.commands.execute(new EditComment({ commentId: id, caller: caller(user), content }, context));
    return ok(await this.queries.shapeComment(comment));
  }

  @Delete(':id')
  @Authenticated()
  @EnvelopeReply(200, flagReply('deleted'), 'soft delete: the content becomes `[deleted]`; counts unchanged')
  @Refusal(403, "`Cannot delete another user's comment`")
  @Refusal(404, '`Comment not found`')
  async remove(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ deleted: true }>> {
    return ok(await this.commands.execute(new DeleteComment({ commentId: id, caller: caller(user), by: 'author' }, context)));
  }

  @Post(':id/upvote')
  @RateLimited('vote')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, VOTE_RESULT, '§21.4')
  @Refusal(404, '`comment not found`')
  async upvote(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext) {
    return ok(await this.commands.execute(new CastVote({ targetType: 'comment', targetId: id, voterId: user.id, direction: 'up' }, context)));
  }

  @Post(':id/downvote')
  @RateLimited('vote')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, VOTE_RESULT, '§21.4')
  @Refusal(404, '`comment not found`')
  async downvote(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext) {
    return ok(await this.commands.execute(new CastVote({ targetType: 'comment', targetId: id, voterId: user.id, direction: 'down' }, context)));
  }

  @Delete(':id/vote')
  @Authenticated()
  @EnvelopeReply(200, flagReply('removed'), 'idempotent')
  @Refusal(404, '`comment not found`')
  async unvote(@CurrentUser() user: AuthUser, @Param('id') id: string, @RequestContext() context: CommandContext): Promise<Envelope<{ removed: true }>> {
    await this.commands.execute(new CastVote({ targetType: 'comment', targetId: id, voterId: user.id, direction: 'clear' }, context));
    return ok({ removed: true });
  }

  @Get(':id/likes')
  @OptionalViewer()
  @EnvelopeReply(200, VOTERS, 'the upvoters, no meta')
  async likes(@Param('id') id: string): Promise<Envelope<VoterView[]>> {
    return ok(await this.queries.likes('comment', id));
  }

  @Post(':id/report')
  @Authenticated()
  @ReadBody(REPORT_BODY_SCHEMA)
  @EnvelopeReply(201, REPORT_VIEW)
  async report(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() body: unknown, @RequestContext() context: CommandContext): Promise<Envelope<ReportRecord>> {
    return ok(await this.commands.execute(new FileReport({ reporterId: user.id, targetType: 'comment', targetId: id, ...reportRequest(body) }, context)));
  }
}
