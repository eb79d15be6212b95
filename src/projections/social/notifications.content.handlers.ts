/**
 * The content context's notification rules (social-routes §11, §21.4): a
 * comment tells the post's author (`comment`) and a reply the parent
 * comment's author (`reply`; one notification when they are the same person); a new upvote on a post or a comment tells its
 * author (`upvote`); downvotes, switches and removals tell no one. Purely from
 * the event; nobody is told of their own act (notification-rules.ts). The
 * content events carry ids, not names, so the messages name no one.
 */
import type { NotificationDraft, NotificationRules } from './notification-draft';

const upvote = (voterId: string, authorId: string, targetType: 'post' | 'comment', targetId: string): NotificationDraft => ({
  user_id: authorId,
  type: 'upvote',
  source_user_id: voterId,
  source_username: null,
  target_type: targetType,
  target_id: targetId,
  message: `Your ${targetType} received an upvote`,
});

const isNewUpvote = (data: { outcome: string; value: number }): boolean => data.outcome === 'voted' && data.value === 1;

export const CONTENT_NOTIFICATION_RULES = {
  CommentPosted: (event) => {
    const d = event.data;
    const drafts: NotificationDraft[] = [
      { user_id: d.post_author_id, type: 'comment', source_user_id: d.author_id, source_username: null, target_type: 'post', target_id: d.post_id, message: 'New comment on your post' },
    ];
    // a reply to the post author's own comment tells them once, as a reply
    if (d.parent_author_id === d.post_author_id) drafts.pop();
    if (d.parent_author_id && d.parent_id) {
      drafts.push({ user_id: d.parent_author_id, type: 'reply', source_user_id: d.author_id, source_username: null, target_type: 'comment', target_id: d.parent_id, message: 'New reply to your comment' });
    }
    return drafts;
  },
  PostVoted: (event) => (isNewUpvote(event.data) ? [upvote(event.data.voter_id, event.data.target_author_id, 'post', event.data.post_id)] : []),
  CommentVoted: (event) => (isNewUpvote(event.data) ? [upvote(event.data.voter_id, event.data.target_author_id, 'comment', event.data.comment_id)] : []),
} satisfies NotificationRules;
