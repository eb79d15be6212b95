/**
 * Commands of the content context (posts, comments, votes, communities,
 * reports), dispatched on the @nestjs/cqrs CommandBus by the controllers and
 * by other contexts (the agents' webhook and recipe sharing publish with
 * `PublishPost`, comment with `PostComment`, vote with `CastVote`). The
 * acting user always comes from the credential.
 */
import type { PostEdits, PostFields, ReportTarget, VoteOutcome } from '../../aggregates/content/content.events';
import type { CommentRecord } from '../../aggregates/content/comment';
import type { CommunityRecord } from '../../aggregates/content/community';
import type { FeedSubscriptionRecord } from '../../aggregates/content/feed-subscription';
import type { PostRecord } from '../../aggregates/content/post';
import type { ReportRecord } from '../../aggregates/content/report';
import type { VoteDirection } from '../../aggregates/content/votes';
import type { Role } from '../../aggregates/accounts/user.events';
import { DomainCommand } from '../common/domain-command';

/** The caller as the content rules see it: id and global role. */
export interface Caller {
  userId: string;
  role: Role;
}

/** A post as its stream holds it, with the counts the decider keeps. */
export interface PostOutcome extends PostRecord {
  upvotes: number;
  downvotes: number;
  score: number;
  is_pinned: boolean;
  is_locked: boolean;
  is_hidden: boolean;
}

export interface CommentOutcome extends CommentRecord {
  upvotes: number;
  downvotes: number;
  score: number;
  is_deleted: boolean;
  is_hidden: boolean;
}

export interface PublishPostPayload {
  authorId: string;
  title: string;
  content: string;
  contentType: string;
  /** a community's name or id; unknown: the post has no community */
  community?: string | null;
  recipeRef?: string | null;
  /** the other fields of the Post record (defaults: none) */
  fields?: Partial<PostFields>;
  /** a deterministic id (the feed poller's, a restore from backup's: a repeat is refused as `post already exists`, never a duplicate); default: a new random id */
  postId?: string;
}

export class PublishPost extends DomainCommand<PublishPostPayload, { post: PostOutcome }> {}

export class EditPost extends DomainCommand<{ postId: string; caller: Caller; changes: PostEdits }, PostOutcome> {}

export class DeletePost extends DomainCommand<{ postId: string; caller: Caller; by: 'author' | 'moderation' }, { deleted: true }> {}

export class SetPostHidden extends DomainCommand<{ postId: string; caller: Caller; hidden: boolean }, { hidden: boolean }> {}

export class TogglePostPin extends DomainCommand<{ postId: string; caller: Caller }, { pinned: boolean }> {}

export class TogglePostLock extends DomainCommand<{ postId: string; caller: Caller }, { locked: boolean }> {}

export class CastVote extends DomainCommand<
  { targetType: 'post' | 'comment'; targetId: string; voterId: string; direction: VoteDirection },
  { action: VoteOutcome; score: number }
> {}

export class PostComment extends DomainCommand<
  {
    authorId: string;
    role: Role;
    content: string;
    /** the post commented on; with parentId only, the parent's post */
    postId: string | null;
    parentId: string | null;
    /** POST /posts/{id}/comments checks the lock; POST /comments/{id}/reply does not (§5) */
    checkLock: boolean;
    /** the comment's id; default a new random one (a restore from backup names the id) */
    commentId?: string;
  },
  CommentOutcome
> {}

export class EditComment extends DomainCommand<{ commentId: string; caller: Caller; content: string }, CommentOutcome> {}

export class DeleteComment extends DomainCommand<{ commentId: string; caller: Caller; by: 'author' | 'moderation' }, { deleted: true }> {}

export class HideComment extends DomainCommand<{ commentId: string; caller: Caller }, { hidden: true }> {}

export class FileReport extends DomainCommand<{ reporterId: string; targetType: ReportTarget; targetId: string; reason: string; details: string | null }, ReportRecord> {}

export class ReviewReport extends DomainCommand<{ reportId: string; moderatorId: string; status: string }, ReportRecord> {}

export interface CommunityOutcome extends CommunityRecord {
  member_count: number;
}

export class CreateCommunity extends DomainCommand<
  { creatorId: string; name: string; displayName: string; description: string; rules: string; isPrivate: boolean },
  CommunityOutcome
> {}

export class UpdateCommunity extends DomainCommand<{ community: string; caller: Caller; changes: { display_name?: string; description?: string; rules?: string } }, CommunityOutcome> {}

export class JoinCommunity extends DomainCommand<{ community: string; userId: string }, { joined: boolean }> {}

export class LeaveCommunity extends DomainCommand<{ community: string; userId: string }, { left: true }> {}

export class SetCommunityRole extends DomainCommand<{ community: string; caller: Caller; userId: string; role: 'member' | 'moderator' }, { changed: boolean }> {}

/** A reputation reward of the action table (social-rewards saga), paid into the user's wallet once per source. */
export class GrantReward extends DomainCommand<
  { userId: string; action: string; amounts: { pulse?: number; spark?: number; signal?: number; xp?: number }; sourceType: string; sourceId: string },
  { granted: boolean }
> {}

/** A subscription as the subscribe and poll routes answer it (the read model's fields). */
export interface FeedSubscriptionView extends FeedSubscriptionRecord {
  last_fetched_at: string | null;
  last_error: string | null;
  items_imported: number;
  created_at: string;
}

/** POST /feeds/subscribe: the URL was fetched and parsed already (`feedTitle`, `fetchedAt`). */
export class SubscribeToFeed extends DomainCommand<
  { userId: string; url: string; communityId: string | null; autoImport: boolean; feedTitle: string; fetchedAt: string },
  FeedSubscriptionView
> {}

export class CancelFeedSubscription extends DomainCommand<{ subscriptionId: string; userId: string }, { cancelled: true }> {}

/** The poller's record of one pass over a subscription. */
export class RecordFeedPoll extends DomainCommand<{ subscriptionId: string; fetchedAt: string; itemsImported: number; error: string | null }, void> {}
