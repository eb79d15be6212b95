/**
 * The accounts context's social events on the `users` read model (spread into
 * usersProjection): profile edits, handles, bans, anonymising, and the follow
 * counters. Each update goes through `updateUser` (applyOnce per document),
 * so a replayed event never counts twice.
 */
import { updateUser } from '../accounts/update-user';
import type { ProjectionHandlers } from '../support/define-projection';

export const USERS_SOCIAL_HANDLERS = {
  UserProfileUpdated: (event, writer) => updateUser(event, writer, event.data.user_id, { $set: { ...event.data.changes } }),
  UserHandleChanged: (event, writer) => updateUser(event, writer, event.data.user_id, { $set: { handle: event.data.handle } }),
  UserBanned: (event, writer) => updateUser(event, writer, event.data.user_id, { $set: { is_banned: true } }),
  UserUnbanned: (event, writer) => updateUser(event, writer, event.data.user_id, { $set: { is_banned: false } }),
  UserAnonymized: (event, writer) =>
    updateUser(event, writer, event.data.user_id, {
      $set: {
        username: event.data.username,
        username_key: event.data.username.toLowerCase(),
        display_name: event.data.display_name,
        email: null,
        bio: '',
        avatar_url: null,
        handle: null,
        local_name: null,
        device_id: null,
        recovery_code_hash: null,
        anonymized_at: event.data.at,
      },
    }),
  UserFollowed: (event, writer) => {
    // two documents, each guarded by its own position: the follower's and the followee's counters
    updateUser(event, writer, event.data.follower_id, { $inc: { following_count: 1 } });
    updateUser(event, writer, event.data.followee_id, { $inc: { follower_count: 1 } });
  },
  UserUnfollowed: (event, writer) => {
    updateUser(event, writer, event.data.follower_id, { $inc: { following_count: -1 } });
    updateUser(event, writer, event.data.followee_id, { $inc: { follower_count: -1 } });
  },
} satisfies ProjectionHandlers;
