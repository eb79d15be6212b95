/**
 * Command handlers of the content context: each finds the stream that owns
 * the decision (a post, a comment, a community by its name, a report), runs
 * its decider through the CommandExecutor and replies from the outcome.
 * Read models only locate streams (a community's name from its id, the
 * author's user_type for the agents feed); what is decided is decided on the
 * streams, whose states the handlers load when a decision needs another
 * stream's facts (a comment needs its post's lock and author).
 */
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { walletDecider, walletStreamId } from '../../aggregates/contest/wallet';
import { commentDecider, type CommentState } from '../../aggregates/content/comment';
import { communityDecider, type CommunityState, moderatesCommunity } from '../../aggregates/content/community';
import { commentStreamId, communityStreamId, postStreamId, reportStreamId } from '../../aggregates/content/content.events';
import { type PostActor, postDecider, postFields, type PostState, POST_NOT_FOUND } from '../../aggregates/content/post';
import { reportDecider } from '../../aggregates/content/report';
import { scoreOf } from '../../aggregates/content/votes';
import type { Role } from '../../aggregates/accounts/user.events';
import { leftIn } from '../../aggregates/shared/decider';
import { DomainError } from '../../aggregates/shared/domain-error';
import { AccountsQueries, isAdminRole, isModeratorRole } from '../accounts/accounts.queries';
import { CommandExecutor } from '../common/command-executor';
import { randomHex } from '../common/random-ids';
import {
  type Caller,
  CastVote,
  type CommentOutcome,
  type CommunityOutcome,
  CreateCommunity,
  DeleteComment,
  DeletePost,
  EditComment,
  EditPost,
  FileReport,
  GrantReward,
  HideComment,
  JoinCommunity,
  LeaveCommunity,
  PostComment,
  type PostOutcome,
  PublishPost,
  ReviewReport,
  SetCommunityRole,
  SetPostHidden,
  TogglePostLock,
  TogglePostPin,
  UpdateCommunity,
} from './content.commands';
import { ContentQueries } from './content.queries';

/** A new id: 80 random bits, hex. */
export const newContentId = (): string => randomHex(10);

function actorOf(caller: Caller, extra: Partial<PostActor> = {}): PostActor {
  return { userId: caller.userId, isAdmin: isAdminRole(caller.role), isModerator: isModeratorRole(caller.role), ...extra };
}

export function postOutcome(state: PostState): PostOutcome {
  if (state.status === 'none') throw new DomainError('not_found', POST_NOT_FOUND);
  return {
    ...state.post,
    upvotes: state.tally.upvotes,
    downvotes: state.tally.downvotes,
    score: scoreOf(state.tally),
    is_pinned: state.pinned,
    is_locked: state.locked,
    is_hidden: state.hidden,
  };
}

function commentOutcome(state: CommentState): CommentOutcome {
  if (state.status === 'none') throw new DomainError('not_found', 'Comment not found');
  return {
    ...state.comment,
    upvotes: state.tally.upvotes,
    downvotes: state.tally.downvotes,
    score: scoreOf(state.tally),
    is_deleted: state.status === 'deleted',
    is_hidden: state.hidden,
  };
}

function communityOutcome(state: CommunityState): CommunityOutcome {
  const active = leftIn(state, 'active');
  return { ...active.community, member_count: active.memberCount };
}

@CommandHandler(PublishPost)
export class PublishPostHandler implements ICommandHandler<PublishPost> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ContentQueries,
    private readonly accounts: AccountsQueries,
  ) {}

  async execute({ payload, context }: PublishPost): Promise<{ post: PostOutcome }> {
    const [author, community] = await Promise.all([
      this.accounts.userById(payload.authorId),
      payload.community ? this.queries.community(payload.community) : Promise.resolve(null),
    ]);
    const postId = payload.postId ?? newContentId();
    const { state } = await this.executor.execute(
      postDecider,
      postStreamId(postId),
      {
        kind: 'publish',
        postId,
        placement: {
          author_id: payload.authorId,
          author_type: author?.user_type ?? 'human',
          community_id: community?.id ?? null,
          community_private: community?.is_private ?? false,
        },
        fields: postFields(payload.title, payload.content, payload.contentType, {
          ...payload.fields,
          recipe_ref: payload.recipeRef ?? payload.fields?.recipe_ref ?? null,
        }),
      },
      context,
      { newStream: payload.postId === undefined },
    );
    return { post: postOutcome(state) };
  }
}

@CommandHandler(EditPost)
export class EditPostHandler implements ICommandHandler<EditPost> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: EditPost): Promise<PostOutcome> {
    const { state } = await this.executor.execute(postDecider, postStreamId(payload.postId), { kind: 'edit', actor: actorOf(payload.caller), changes: payload.changes }, context);
    return postOutcome(state);
  }
}

@CommandHandler(DeletePost)
export class DeletePostHandler implements ICommandHandler<DeletePost> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: DeletePost): Promise<{ deleted: true }> {
    await this.executor.execute(postDecider, postStreamId(payload.postId), { kind: 'delete', actor: actorOf(payload.caller), by: payload.by }, context);
    return { deleted: true };
  }
}

@CommandHandler(SetPostHidden)
export class SetPostHiddenHandler implements ICommandHandler<SetPostHidden> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: SetPostHidden): Promise<{ hidden: boolean }> {
    const { state } = await this.executor.execute(postDecider, postStreamId(payload.postId), { kind: 'setHidden', actor: actorOf(payload.caller), hidden: payload.hidden }, context);
    return { hidden: postOutcome(state).is_hidden };
  }
}

@CommandHandler(TogglePostPin)
export class TogglePostPinHandler implements ICommandHandler<TogglePostPin> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ContentQueries,
  ) {}

  /** A global moderator, or an admin or moderator of the post's community (decided on the community's stream). */
  async execute({ payload, context }: TogglePostPin): Promise<{ pinned: boolean }> {
    const streamId = postStreamId(payload.postId);
    let mayPin = isModeratorRole(payload.caller.role);
    if (!mayPin) {
      const { state: post } = await this.executor.load(postDecider, streamId);
      const communityId = post.status === 'none' ? null : post.post.community_id;
      const community = communityId ? await this.queries.community(communityId) : null;
      if (community) {
        const { state } = await this.executor.load(communityDecider, communityStreamId(community.name));
        mayPin = moderatesCommunity(state, payload.caller.userId);
      }
    }
    const { state } = await this.executor.execute(postDecider, streamId, { kind: 'togglePin', actor: actorOf(payload.caller, { mayPin }) }, context);
    return { pinned: postOutcome(state).is_pinned };
  }
}

@CommandHandler(TogglePostLock)
export class TogglePostLockHandler implements ICommandHandler<TogglePostLock> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: TogglePostLock): Promise<{ locked: boolean }> {
    const { state } = await this.executor.execute(postDecider, postStreamId(payload.postId), { kind: 'toggleLock', actor: actorOf(payload.caller) }, context);
    return { locked: postOutcome(state).is_locked };
  }
}

@CommandHandler(CastVote)
export class CastVoteHandler implements ICommandHandler<CastVote> {
  constructor(private readonly executor: CommandExecutor) {}

  /** The vote is decided on the target's stream (one vote per user and target); the reply's score is the target's after it. */
  async execute({ payload, context }: CastVote): Promise<{ action: 'voted' | 'changed' | 'removed'; score: number }> {
    const command = { kind: 'vote' as const, voterId: payload.voterId, direction: payload.direction };
    if (payload.targetType === 'post') {
      const { state, events } = await this.executor.execute(postDecider, postStreamId(payload.targetId), command, context);
      const voted = events.find((e) => e.type === 'PostVoted');
      return { action: voted?.type === 'PostVoted' ? voted.data.outcome : 'removed', score: postOutcome(state).score };
    }
    const { state, events } = await this.executor.execute(commentDecider, commentStreamId(payload.targetId), command, context);
    const voted = events.find((e) => e.type === 'CommentVoted');
    return { action: voted?.type === 'CommentVoted' ? voted.data.outcome : 'removed', score: commentOutcome(state).score };
  }
}

@CommandHandler(PostComment)
export class PostCommentHandler implements ICommandHandler<PostComment> {
  constructor(private readonly executor: CommandExecutor) {}

  /** The parent's and the post's streams give the depth, the authors to tell and the lock. */
  async execute({ payload, context }: PostComment): Promise<CommentOutcome> {
    let postId = payload.postId;
    let parent: { id: string; authorId: string; depth: number } | null = null;
    if (payload.parentId) {
      const { state } = await this.executor.load(commentDecider, commentStreamId(payload.parentId));
      if (state.status !== 'posted' || (postId !== null && state.comment.post_id !== postId)) throw new DomainError('not_found', 'Comment not found');
      parent = { id: state.comment.id, authorId: state.comment.author_id, depth: state.comment.depth };
      postId = state.comment.post_id;
    }
    if (postId === null) throw new DomainError('not_found', POST_NOT_FOUND);
    const { state: post } = await this.executor.load(postDecider, postStreamId(postId));
    if (post.status !== 'published') throw new DomainError('not_found', POST_NOT_FOUND);
    const commentId = payload.commentId ?? newContentId();
    const { state } = await this.executor.execute(
      commentDecider,
      commentStreamId(commentId),
      {
        kind: 'post',
        commentId,
        authorId: payload.authorId,
        content: payload.content,
        target: { postId, postAuthorId: post.post.author_id, locked: post.locked },
        parent,
        enforceLock: payload.checkLock && !isModeratorRole(payload.role),
      },
      context,
      { newStream: true },
    );
    return commentOutcome(state);
  }
}

@CommandHandler(EditComment)
export class EditCommentHandler implements ICommandHandler<EditComment> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: EditComment): Promise<CommentOutcome> {
    const { state } = await this.executor.execute(
      commentDecider,
      commentStreamId(payload.commentId),
      { kind: 'edit', actorId: payload.caller.userId, isAdmin: isAdminRole(payload.caller.role), content: payload.content },
      context,
    );
    return commentOutcome(state);
  }
}

@CommandHandler(DeleteComment)
export class DeleteCommentHandler implements ICommandHandler<DeleteComment> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: DeleteComment): Promise<{ deleted: true }> {
    await this.executor.execute(
      commentDecider,
      commentStreamId(payload.commentId),
      { kind: 'delete', actorId: payload.caller.userId, isAdmin: isAdminRole(payload.caller.role), by: payload.by },
      context,
    );
    return { deleted: true };
  }
}

@CommandHandler(HideComment)
export class HideCommentHandler implements ICommandHandler<HideComment> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: HideComment): Promise<{ hidden: true }> {
    await this.executor.execute(
      commentDecider,
      commentStreamId(payload.commentId),
      { kind: 'hide', actorId: payload.caller.userId, isModerator: isModeratorRole(payload.caller.role) },
      context,
    );
    return { hidden: true };
  }
}

@CommandHandler(FileReport)
export class FileReportHandler implements ICommandHandler<FileReport> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: FileReport) {
    const reportId = newContentId();
    const { state } = await this.executor.execute(reportDecider, reportStreamId(reportId), { kind: 'file', reportId, ...payload }, context, { newStream: true });
    return leftIn(state, 'filed').report;
  }
}

@CommandHandler(ReviewReport)
export class ReviewReportHandler implements ICommandHandler<ReviewReport> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ReviewReport) {
    const { state } = await this.executor.execute(reportDecider, reportStreamId(payload.reportId), { kind: 'review', moderatorId: payload.moderatorId, status: payload.status }, context);
    return leftIn(state, 'filed').report;
  }
}

@CommandHandler(CreateCommunity)
export class CreateCommunityHandler implements ICommandHandler<CreateCommunity> {
  constructor(private readonly executor: CommandExecutor) {}

  /** The name's stream is the claim: a second creation of the name is refused there. */
  async execute({ payload, context }: CreateCommunity): Promise<CommunityOutcome> {
    const { state } = await this.executor.execute(communityDecider, communityStreamId(payload.name), { kind: 'create', communityId: newContentId(), ...payload }, context);
    return communityOutcome(state);
  }
}

/** The stream of a community named by name or id (404 when the read model does not know it). */
async function communityStream(queries: ContentQueries, nameOrId: string): Promise<string> {
  return communityStreamId((await queries.communityOr404(nameOrId)).name);
}

const isAdmin = (role: Role): boolean => isAdminRole(role);

@CommandHandler(UpdateCommunity)
export class UpdateCommunityHandler implements ICommandHandler<UpdateCommunity> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ContentQueries,
  ) {}

  async execute({ payload, context }: UpdateCommunity): Promise<CommunityOutcome> {
    const { state } = await this.executor.execute(
      communityDecider,
      await communityStream(this.queries, payload.community),
      { kind: 'update', actorId: payload.caller.userId, isAdmin: isAdmin(payload.caller.role), changes: payload.changes },
      context,
    );
    return communityOutcome(state);
  }
}

@CommandHandler(JoinCommunity)
export class JoinCommunityHandler implements ICommandHandler<JoinCommunity> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ContentQueries,
  ) {}

  async execute({ payload, context }: JoinCommunity): Promise<{ joined: boolean }> {
    const { events } = await this.executor.execute(communityDecider, await communityStream(this.queries, payload.community), { kind: 'join', userId: payload.userId }, context);
    return { joined: events.length > 0 };
  }
}

@CommandHandler(LeaveCommunity)
export class LeaveCommunityHandler implements ICommandHandler<LeaveCommunity> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ContentQueries,
  ) {}

  async execute({ payload, context }: LeaveCommunity): Promise<{ left: true }> {
    await this.executor.execute(communityDecider, await communityStream(this.queries, payload.community), { kind: 'leave', userId: payload.userId }, context);
    return { left: true };
  }
}

@CommandHandler(SetCommunityRole)
export class SetCommunityRoleHandler implements ICommandHandler<SetCommunityRole> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ContentQueries,
  ) {}

  async execute({ payload, context }: SetCommunityRole): Promise<{ changed: boolean }> {
    const { events } = await this.executor.execute(
      communityDecider,
      await communityStream(this.queries, payload.community),
      { kind: 'setRole', actorId: payload.caller.userId, isAdmin: isAdmin(payload.caller.role), userId: payload.userId, role: payload.role },
      context,
    );
    return { changed: events.length > 0 };
  }
}

@CommandHandler(GrantReward)
export class GrantRewardHandler implements ICommandHandler<GrantReward> {
  constructor(private readonly executor: CommandExecutor) {}

  /** Paid into the contest's wallet stream of the user; the wallet ignores a source it already paid. */
  async execute({ payload, context }: GrantReward): Promise<{ granted: boolean }> {
    const { events } = await this.executor.execute(
      walletDecider,
      walletStreamId(payload.userId),
      { kind: 'reward', ...payload },
      context,
      // many sources may pay one wallet at once; nobody reads a reward right after it
      { maxRetries: 20, readYourWrites: false },
    );
    return { granted: events.length > 0 };
  }
}
