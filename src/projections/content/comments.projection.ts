/**
 * `comments`: one document per comment, the Comment record of social-routes
 * §0.5 plus `visible` (neither deleted nor hidden), read per post (a hash
 * index on post_id) and sorted in memory: a post's comments are one page.
 */
import { ERASED_TEXT } from '../../aggregates/personal-data';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const COMMENTS = 'comments';

/** The Comment record of §0.5 (what clients see, less the author). */
export interface CommentRecordFields {
  id: string;
  post_id: string;
  author_id: string;
  parent_id: string | null;
  content: string;
  upvotes: number;
  downvotes: number;
  score: number;
  depth: number;
  is_deleted: boolean;
  is_hidden: boolean;
  created_at: string;
}

export interface CommentDoc extends Doc, CommentRecordFields {
  visible: boolean;
}

const set = (event: { position: number }, writer: Parameters<typeof applyOnce>[0], id: string, fields: Record<string, unknown>): void =>
  applyOnce(writer, COMMENTS, id, event, { $set: fields }, { upsert: false });

export const commentsProjection = defineProjection({
  name: 'comments',
  version: 1,
  collections: [COMMENTS],
  indexes: [
    { collection: COMMENTS, spec: { keys: { post_id: 1 } } },
    { collection: COMMENTS, spec: { keys: { author_id: 1 } } },
  ],
  on: {
    CommentPosted: (event, writer) => {
      const d = event.data;
      applyOnce(writer, COMMENTS, d.comment_id, event, {
        $set: {
          id: d.comment_id,
          post_id: d.post_id,
          author_id: d.author_id,
          parent_id: d.parent_id,
          content: d.content,
          upvotes: 0,
          downvotes: 0,
          score: 0,
          depth: d.depth,
          is_deleted: false,
          is_hidden: false,
          visible: true,
          created_at: d.posted_at,
        },
      });
    },
    CommentEdited: (event, writer) => set(event, writer, event.data.comment_id, { content: event.data.content }),
    CommentDeleted: (event, writer) =>
      set(event, writer, event.data.comment_id, {
        is_deleted: true,
        visible: false,
        ...(event.data.by === 'author' ? { content: '[deleted]' } : {}),
      }),
    CommentHidden: (event, writer) => set(event, writer, event.data.comment_id, { is_hidden: true, visible: false }),
    // an author erased with their content: as the log reads once the content key is gone (personal-data.ts)
    UserAnonymized: (event, writer) => {
      if (event.data.content_erased !== true) return;
      writer.write(COMMENTS, { updateMany: { filter: { author_id: event.data.user_id }, update: { $set: { content: ERASED_TEXT } } } });
    },
    CommentVoted: (event, writer) => {
      const { comment_id, upvotes, downvotes, score } = event.data;
      set(event, writer, comment_id, { upvotes, downvotes, score });
    },
  },
});
