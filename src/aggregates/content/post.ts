/**
 * A post (stream `post-<id>`; social-routes §4, §12, §21.4): published,
 * edited by its author (or an admin), soft-deleted, pinned, locked and hidden
 * by moderators, and voted on: the post's stream holds each voter's vote, so
 * it is the consistency boundary of "one vote per user and post".
 *
 * Who may moderate is decided by the caller's facts the handler passes in
 * (global role, role in the post's community); the decider applies the rule.
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';
import type { PostEdits, PostEvent, PostFields, PostPlacement, VisibilityChange } from './content.events';
import { applyVote, castVote, EMPTY_TALLY, scoreOf, type Tally, type VoteDirection, voteOf } from './votes';

export interface PostRecord extends PostPlacement, PostFields {
  id: string;
  created_at: string;
  updated_at: string;
}

interface PostBody {
  post: PostRecord;
  tally: Tally;
  pinned: boolean;
  locked: boolean;
  hidden: boolean;
}

export type LivePost = PostBody & { status: 'published' };

/** `deletedBy`: the author (or an admin for them), or moderation: a restore from backup re-publishes only the former. */
export type PostState = { status: 'none' } | LivePost | (PostBody & { status: 'deleted'; deletedBy: 'author' | 'moderation' });

/** Who acts, as far as the post's rules need to know. */
export interface PostActor {
  userId: string;
  /** global admin (role admin): may edit and delete anyone's post */
  isAdmin: boolean;
  /** may pin: global moderator, or admin/moderator of the post's community */
  mayPin?: boolean;
  /** global moderator flag (role operator or admin): lock, hide */
  isModerator?: boolean;
}

export type PostCommand =
  | { kind: 'publish'; postId: string; placement: PostPlacement; fields: PostFields }
  | { kind: 'edit'; actor: PostActor; changes: PostEdits }
  | { kind: 'delete'; actor: PostActor; by: 'author' | 'moderation' }
  | { kind: 'setHidden'; actor: PostActor; hidden: boolean }
  | { kind: 'togglePin'; actor: PostActor }
  | { kind: 'toggleLock'; actor: PostActor }
  /** `onlyIfNone`: cast only when the voter has no vote on the post (a restore re-casting a backed-up vote idempotently) */
  | { kind: 'vote'; voterId: string; direction: VoteDirection; onlyIfNone?: boolean };

export const POST_NOT_FOUND = 'Post not found';

/** A post's fields with everything optional left empty. */
export function postFields(title: string, content: string, contentType = 'text', extra: Partial<PostFields> = {}): PostFields {
  return {
    code_language: null,
    recipe_ref: null,
    media_urls: [],
    link_url: null,
    source_channel: null,
    intent_category: null,
    hypothesis: null,
    expected_outcome: null,
    is_thought_experiment: false,
    dynamic_layout: null,
    ...extra,
    title,
    content,
    content_type: contentType,
  };
}
export const MODERATOR_REQUIRED = 'Moderator access required';

const initialState: PostState = { status: 'none' };

function evolve(state: PostState, event: PostEvent): PostState {
  switch (event.type) {
    case 'PostPublished': {
      const { post_id, published_at, ...rest } = event.data;
      return {
        status: 'published',
        post: { id: post_id, ...rest, created_at: published_at, updated_at: published_at },
        tally: EMPTY_TALLY,
        pinned: false,
        locked: false,
        hidden: false,
      };
    }
    case 'PostEdited':
      if (state.status === 'none') return state;
      return { ...state, post: { ...state.post, ...event.data.changes, updated_at: event.data.edited_at } };
    case 'PostDeleted':
      if (state.status === 'none') return state;
      return { ...state, status: 'deleted', deletedBy: event.data.by };
    case 'PostHiddenSet':
      if (state.status === 'none') return state;
      return { ...state, hidden: event.data.hidden };
    case 'PostPinSet':
      if (state.status === 'none') return state;
      return { ...state, pinned: event.data.pinned };
    case 'PostLockSet':
      if (state.status === 'none') return state;
      return { ...state, locked: event.data.locked };
    case 'PostVoted':
      if (state.status === 'none') return state;
      return { ...state, tally: applyVote(state.tally, event.data) };
    default:
      return assertNever(event);
  }
}

/** The post, or 404 (`Post not found`; the vote routes say `post not found`) when it was never published or is deleted. */
function live(state: PostState, message = POST_NOT_FOUND): LivePost {
  if (state.status !== 'published') throw new DomainError('not_found', message);
  return state;
}

function visibilityChange(state: LivePost, at: string): VisibilityChange {
  const { author_id, author_type, community_id, community_private } = state.post;
  return { post_id: state.post.id, author_id, author_type, community_id, community_private, was_visible: !state.hidden, score: scoreOf(state.tally), at };
}

function decide(command: PostCommand, state: PostState, now: Date): PostEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'publish':
      if (state.status !== 'none') throw new DomainError('conflict', 'post already exists');
      return [{ type: 'PostPublished', data: { post_id: command.postId, ...command.placement, ...command.fields, published_at: at } }];
    case 'edit': {
      const post = live(state);
      if (post.post.author_id !== command.actor.userId && !command.actor.isAdmin) throw new DomainError('forbidden', "Cannot edit another user's post");
      if (Object.keys(command.changes).length === 0) return [];
      return [{ type: 'PostEdited', data: { post_id: post.post.id, changes: command.changes, edited_at: at } }];
    }
    case 'delete': {
      const post = live(state);
      if (command.by === 'author' && post.post.author_id !== command.actor.userId && !command.actor.isAdmin) {
        throw new DomainError('forbidden', "Cannot delete another user's post");
      }
      if (command.by === 'moderation' && !command.actor.isAdmin) throw new DomainError('forbidden', 'Admin access required');
      return [{ type: 'PostDeleted', data: { ...visibilityChange(post, at), by: command.by, actor_id: command.actor.userId } }];
    }
    case 'setHidden': {
      const post = live(state);
      if (!command.actor.isModerator) throw new DomainError('forbidden', MODERATOR_REQUIRED);
      if (post.hidden === command.hidden) return [];
      return [{ type: 'PostHiddenSet', data: { ...visibilityChange(post, at), hidden: command.hidden, actor_id: command.actor.userId } }];
    }
    case 'togglePin': {
      const post = live(state);
      if (!command.actor.mayPin) throw new DomainError('forbidden', MODERATOR_REQUIRED);
      return [{ type: 'PostPinSet', data: { post_id: post.post.id, pinned: !post.pinned, actor_id: command.actor.userId, at } }];
    }
    case 'toggleLock': {
      const post = live(state);
      if (!command.actor.isModerator) throw new DomainError('forbidden', MODERATOR_REQUIRED);
      return [{ type: 'PostLockSet', data: { post_id: post.post.id, locked: !post.locked, actor_id: command.actor.userId, at } }];
    }
    case 'vote': {
      const post = live(state, 'post not found');
      if (command.onlyIfNone && voteOf(post.tally, command.voterId) !== 0) return [];
      const facts = castVote(post.tally, command.voterId, command.direction, post.post.author_id, at);
      return facts ? [{ type: 'PostVoted', data: { post_id: post.post.id, ...facts } }] : [];
    }
    default:
      return assertNever(command);
  }
}

export const postDecider: Decider<PostState, PostCommand, PostEvent> = { initialState, evolve, decide };
