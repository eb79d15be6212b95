/**
 * Events of the content context (social-routes §4–§6, §12, §21.4): posts,
 * comments, votes, communities and reports. Stream ids: `post-<id>`,
 * `comment-<id>`, `community-<name key>` (the community's lower-cased name:
 * the stream is the name's claim), `report-<id>`.
 *
 * Votes live in the stream of what is voted on: the target decides per voter
 * (one vote per user and target), so concurrent up- and downvotes of one
 * user serialise on that stream's revision and never double-count, and the
 * reply's score comes from the decider's own state.
 */

/** 1 up, -1 down, 0 none. */
export type VoteValue = 1 | -1 | 0;
export type VoteOutcome = 'voted' | 'changed' | 'removed';

/** What every vote event carries (the notification and reward sagas read target_author_id and outcome). */
export interface VoteFacts {
  voter_id: string;
  target_author_id: string;
  outcome: VoteOutcome;
  /** the voter's vote after the event */
  value: VoteValue;
  /** the voter's vote before it */
  previous: VoteValue;
  /** the target's counts after the event */
  upvotes: number;
  downvotes: number;
  score: number;
  at: string;
}

/** Where a post is listed (social-routes §21.1): the facts its visibility is computed from. */
export interface PostPlacement {
  author_id: string;
  /** the author's user_type when the post was published (human, agent, guest): the agents feed */
  author_type: string;
  community_id: string | null;
  /** the community is private: the post is shown only to its members */
  community_private: boolean;
}

export interface PostFields {
  title: string;
  content: string;
  content_type: string;
  code_language: string | null;
  recipe_ref: string | null;
  media_urls: string[];
  link_url: string | null;
  source_channel: string | null;
  intent_category: string | null;
  hypothesis: string | null;
  expected_outcome: string | null;
  is_thought_experiment: boolean;
  dynamic_layout: unknown;
}

/** The fields PATCH /posts/{id} may change. */
export type PostEdits = Partial<Pick<PostFields, 'title' | 'content' | 'intent_category' | 'hypothesis' | 'expected_outcome' | 'is_thought_experiment' | 'dynamic_layout'>>;

/** Visibility before and after a change, and where the post is: what counters move by. */
export interface VisibilityChange extends PostPlacement {
  post_id: string;
  was_visible: boolean;
  /** the post's score when it changed (karma counts only live posts) */
  score: number;
  at: string;
}

export type PostEvent =
  | { type: 'PostPublished'; data: PostPlacement & PostFields & { post_id: string; published_at: string } }
  | { type: 'PostEdited'; data: { post_id: string; changes: PostEdits; edited_at: string } }
  | {
      type: 'PostDeleted';
      /** by `author` (or an admin on their behalf): counters go down; by `moderation`: counters untouched (§12) */
      data: VisibilityChange & { by: 'author' | 'moderation'; actor_id: string };
    }
  | { type: 'PostHiddenSet'; data: VisibilityChange & { hidden: boolean; actor_id: string } }
  | { type: 'PostPinSet'; data: { post_id: string; pinned: boolean; actor_id: string; at: string } }
  | { type: 'PostLockSet'; data: { post_id: string; locked: boolean; actor_id: string; at: string } }
  | { type: 'PostVoted'; data: VoteFacts & { post_id: string } };

export type CommentEvent =
  | {
      type: 'CommentPosted';
      data: {
        comment_id: string;
        post_id: string;
        author_id: string;
        parent_id: string | null;
        depth: number;
        content: string;
        /** who is told (`comment`): the post's author */
        post_author_id: string;
        /** who is told (`reply`): the parent comment's author, null at top level */
        parent_author_id: string | null;
        posted_at: string;
      };
    }
  | { type: 'CommentEdited'; data: { comment_id: string; content: string; edited_at: string } }
  | {
      type: 'CommentDeleted';
      data: { comment_id: string; post_id: string; author_id: string; score: number; was_visible: boolean; by: 'author' | 'moderation'; actor_id: string; at: string };
    }
  | { type: 'CommentHidden'; data: { comment_id: string; post_id: string; author_id: string; was_visible: boolean; actor_id: string; at: string } }
  | { type: 'CommentVoted'; data: VoteFacts & { comment_id: string; post_id: string } };

export type CommunityRole = 'member' | 'moderator' | 'admin';

/** A community as created (its id aside). */
export interface CommunityFields {
  name: string;
  display_name: string;
  description: string;
  rules: string;
  is_private: boolean;
  creator_id: string;
  created_at: string;
}

export type CommunityEvent =
  | {
      type: 'CommunityCreated';
      data: CommunityFields & { community_id: string };
    }
  | { type: 'CommunityUpdated'; data: { community_id: string; changes: { display_name?: string; description?: string; rules?: string }; actor_id: string; at: string } }
  | { type: 'CommunityJoined'; data: { community_id: string; user_id: string; role: CommunityRole; member_count: number; at: string } }
  | { type: 'CommunityLeft'; data: { community_id: string; user_id: string; member_count: number; at: string } }
  | { type: 'CommunityRoleSet'; data: { community_id: string; user_id: string; role: CommunityRole; actor_id: string; at: string } };

export type ReportTarget = 'post' | 'comment';

export type ReportEvent =
  | {
      type: 'ReportFiled';
      data: { report_id: string; reporter_id: string; target_type: ReportTarget; target_id: string; reason: string; details: string | null; filed_at: string };
    }
  | { type: 'ReportReviewed'; data: { report_id: string; status: string; moderator_id: string; at: string } };

export type ContentEvent = PostEvent | CommentEvent | CommunityEvent | ReportEvent;

export const postStreamId = (postId: string): string => `post-${postId}`;
export const commentStreamId = (commentId: string): string => `comment-${commentId}`;
/** The community's stream is keyed by its name, case-insensitively: it is the name's claim. */
export const communityStreamId = (name: string): string => `community-${communityNameKey(name)}`;
export const reportStreamId = (reportId: string): string => `report-${reportId}`;
export const communityNameKey = (name: string): string => name.trim().toLowerCase();
