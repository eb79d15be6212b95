/**
 * The content context's part of the `users` read model (spread into
 * usersProjection): post_count, comment_count, post_karma, comment_karma and
 * karma_score (§21.3: Σ score of the user's live posts and comments +
 * task_karma). Votes move the author's karma by the change of the target's
 * score; a deleted post or comment takes its score off. karma_score moves by
 * the same deltas, so it stays post_karma + comment_karma + task_karma as
 * long as the task_karma handlers move it by their own deltas too.
 */
import { updateUser } from '../accounts/update-user';
import type { ProjectionHandlers } from '../support/define-projection';

export const USERS_CONTENT_HANDLERS = {
  PostPublished: (event, writer) => updateUser(event, writer, event.data.author_id, { $inc: { post_count: 1 } }),
  PostDeleted: (event, writer) =>
    updateUser(event, writer, event.data.author_id, {
      $inc: { post_count: event.data.by === 'author' ? -1 : 0, post_karma: -event.data.score, karma_score: -event.data.score },
    }),
  PostVoted: (event, writer) => {
    const delta = event.data.value - event.data.previous;
    updateUser(event, writer, event.data.target_author_id, { $inc: { post_karma: delta, karma_score: delta } });
  },
  CommentPosted: (event, writer) => updateUser(event, writer, event.data.author_id, { $inc: { comment_count: 1 } }),
  CommentDeleted: (event, writer) =>
    updateUser(event, writer, event.data.author_id, { $inc: { comment_karma: -event.data.score, karma_score: -event.data.score } }),
  CommentVoted: (event, writer) => {
    const delta = event.data.value - event.data.previous;
    updateUser(event, writer, event.data.target_author_id, { $inc: { comment_karma: delta, karma_score: delta } });
  },
} satisfies ProjectionHandlers;
