/**
 * The content context's part of the `notifications` read model (social-routes
 * §11; the accounts context owns the projection and spreads this map into
 * it): `comment` to a post's author, `reply` to a parent comment's author
 * (one notification when they are the same person), `upvote` to the author
 * of a post or comment on a new upvote (not a switch, not a removal). Nobody
 * is told of their own action. Ids are derived from the event, so a replay
 * writes the same documents.
 */
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import { applyOnce } from '../support/apply-once';
import type { ProjectionHandlers } from '../support/define-projection';

export const NOTIFICATIONS_COLLECTION = 'notifications';

interface Notice {
  id: string;
  user_id: string;
  type: 'comment' | 'reply' | 'upvote';
  source_user_id: string;
  target_type: 'post' | 'comment';
  target_id: string;
  message: string;
  created_at: string;
}

function notify(event: { position: number }, writer: ProjectionWriter, notice: Notice): void {
  if (notice.user_id === notice.source_user_id) return;
  applyOnce(writer, NOTIFICATIONS_COLLECTION, notice.id, event, { $set: { ...notice, is_read: false } });
}

export const NOTIFICATIONS_CONTENT_HANDLERS = {
  CommentPosted: (event, writer) => {
    const d = event.data;
    if (d.parent_author_id) {
      notify(event, writer, { id: `reply:${d.comment_id}`, user_id: d.parent_author_id, type: 'reply', source_user_id: d.author_id, target_type: 'comment', target_id: d.comment_id, message: 'replied to your comment', created_at: d.posted_at });
    }
    if (d.post_author_id !== d.parent_author_id) {
      notify(event, writer, { id: `comment:${d.comment_id}`, user_id: d.post_author_id, type: 'comment', source_user_id: d.author_id, target_type: 'post', target_id: d.post_id, message: 'commented on your post', created_at: d.posted_at });
    }
  },
  PostVoted: (event, writer) => {
    const d = event.data;
    if (d.value !== 1 || d.previous !== 0) return;
    notify(event, writer, { id: `upvote:${event.position}`, user_id: d.target_author_id, type: 'upvote', source_user_id: d.voter_id, target_type: 'post', target_id: d.post_id, message: 'upvoted your post', created_at: d.at });
  },
  CommentVoted: (event, writer) => {
    const d = event.data;
    if (d.value !== 1 || d.previous !== 0) return;
    notify(event, writer, { id: `upvote:${event.position}`, user_id: d.target_author_id, type: 'upvote', source_user_id: d.voter_id, target_type: 'comment', target_id: d.comment_id, message: 'upvoted your comment', created_at: d.at });
  },
} satisfies ProjectionHandlers;
