/** The accounts context's notification rules (social-routes §11): a follow tells the followed user. */
import type { NotificationRules } from './notification-draft';

export const ACCOUNT_NOTIFICATION_RULES = {
  UserFollowed: (event) => [
    {
      user_id: event.data.followee_id,
      type: 'follow',
      source_user_id: event.data.follower_id,
      source_username: event.data.follower_username,
      target_type: 'user',
      target_id: event.data.follower_id,
      message: `${event.data.follower_username} started following you`,
    },
  ],
} satisfies NotificationRules;
