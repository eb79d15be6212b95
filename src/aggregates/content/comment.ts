/**
 * A comment (stream `comment-<id>`; social-routes §5, §12, §21.4): posted on
 * a post (at top level or under a parent comment, depth = parent's + 1),
 * edited by its author, soft-deleted (`[deleted]`), hidden by moderators, and
 * voted on, one vote per user (the comment's stream holds the votes).
 *
 * The post and the parent are other streams: the handler loads them and
 * passes the facts this decision needs (exists, locked, authors, depth).
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';
import type { CommentEvent } from './content.events';
import { applyVote, castVote, EMPTY_TALLY, scoreOf, type Tally, type VoteDirection, voteOf } from './votes';

export const DELETED_CONTENT = '[deleted]';

export interface CommentRecord {
  id: string;
  post_id: string;
  author_id: string;
  parent_id: string | null;
  depth: number;
  content: string;
  created_at: string;
}

interface CommentBody {
  comment: CommentRecord;
  tally: Tally;
  hidden: boolean;
}

type LiveComment = CommentBody & { status: 'posted' };

/** `deletedBy`: the author (or an admin for them), or moderation: a restore from backup re-posts only the former. */
export type CommentState = { status: 'none' } | LiveComment | (CommentBody & { status: 'deleted'; deletedBy: 'author' | 'moderation' });

/** The post a comment goes on, as the handler found it in the post's stream. */
export interface CommentTarget {
  postId: string;
  postAuthorId: string;
  locked: boolean;
}

export interface CommentParent {
  id: string;
  authorId: string;
  depth: number;
}

export type CommentCommand =
  | {
      kind: 'post';
      commentId: string;
      authorId: string;
      content: string;
      target: CommentTarget;
      parent: CommentParent | null;
      /** the lock is checked (top-level comments by POST /posts/{id}/comments) and the caller is no moderator */
      enforceLock: boolean;
    }
  | { kind: 'edit'; actorId: string; isAdmin: boolean; content: string }
  | { kind: 'delete'; actorId: string; isAdmin: boolean; by: 'author' | 'moderation' }
  | { kind: 'hide'; actorId: string; isModerator: boolean }
  /** `onlyIfNone`: cast only when the voter has no vote on the comment (a restore re-casting a backed-up vote idempotently) */
  | { kind: 'vote'; voterId: string; direction: VoteDirection; onlyIfNone?: boolean };

const initialState: CommentState = { status: 'none' };

function evolve(state: CommentState, event: CommentEvent): CommentState {
  switch (event.type) {
    case 'CommentPosted': {
      const d = event.data;
      return {
        status: 'posted',
        comment: { id: d.comment_id, post_id: d.post_id, author_id: d.author_id, parent_id: d.parent_id, depth: d.depth, content: d.content, created_at: d.posted_at },
        tally: EMPTY_TALLY,
        hidden: false,
      };
    }
    case 'CommentEdited':
      if (state.status === 'none') return state;
      return { ...state, comment: { ...state.comment, content: event.data.content } };
    case 'CommentDeleted':
      if (state.status === 'none') return state;
      return { ...state, status: 'deleted', deletedBy: event.data.by, comment: event.data.by === 'author' ? { ...state.comment, content: DELETED_CONTENT } : state.comment };
    case 'CommentHidden':
      if (state.status === 'none') return state;
      return { ...state, hidden: true };
    case 'CommentVoted':
      if (state.status === 'none') return state;
      return { ...state, tally: applyVote(state.tally, event.data) };
    default:
      return assertNever(event);
  }
}

function live(state: CommentState, message = 'Comment not found'): LiveComment {
  if (state.status !== 'posted') throw new DomainError('not_found', message);
  return state;
}

function decide(command: CommentCommand, state: CommentState, now: Date): CommentEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'post': {
      if (state.status !== 'none') throw new DomainError('conflict', 'comment already exists');
      if (command.enforceLock && command.target.locked) throw new DomainError('forbidden', 'Post is locked');
      return [
        {
          type: 'CommentPosted',
          data: {
            comment_id: command.commentId,
            post_id: command.target.postId,
            author_id: command.authorId,
            parent_id: command.parent?.id ?? null,
            depth: command.parent ? command.parent.depth + 1 : 0,
            content: command.content,
            post_author_id: command.target.postAuthorId,
            parent_author_id: command.parent?.authorId ?? null,
            posted_at: at,
          },
        },
      ];
    }
    case 'edit': {
      const comment = live(state);
      if (comment.comment.author_id !== command.actorId && !command.isAdmin) throw new DomainError('forbidden', "Cannot edit another user's comment");
      if (command.content === '' || command.content === comment.comment.content) return [];
      return [{ type: 'CommentEdited', data: { comment_id: comment.comment.id, content: command.content, edited_at: at } }];
    }
    case 'delete': {
      const comment = live(state);
      if (command.by === 'author' && comment.comment.author_id !== command.actorId && !command.isAdmin) {
        throw new DomainError('forbidden', "Cannot delete another user's comment");
      }
      if (command.by === 'moderation' && !command.isAdmin) throw new DomainError('forbidden', 'Admin access required');
      const { id, post_id, author_id } = comment.comment;
      return [
        {
          type: 'CommentDeleted',
          data: { comment_id: id, post_id, author_id, score: scoreOf(comment.tally), was_visible: !comment.hidden, by: command.by, actor_id: command.actorId, at },
        },
      ];
    }
    case 'hide': {
      const comment = live(state);
      if (!command.isModerator) throw new DomainError('forbidden', 'Moderator access required');
      if (comment.hidden) return [];
      const { id, post_id, author_id } = comment.comment;
      return [{ type: 'CommentHidden', data: { comment_id: id, post_id, author_id, was_visible: true, actor_id: command.actorId, at } }];
    }
    case 'vote': {
      const comment = live(state, 'comment not found');
      if (command.onlyIfNone && voteOf(comment.tally, command.voterId) !== 0) return [];
      const facts = castVote(comment.tally, command.voterId, command.direction, comment.comment.author_id, at);
      return facts ? [{ type: 'CommentVoted', data: { comment_id: comment.comment.id, post_id: comment.comment.post_id, ...facts } }] : [];
    }
    default:
      return assertNever(command);
  }
}

export const commentDecider: Decider<CommentState, CommentCommand, CommentEvent> = { initialState, evolve, decide };
