/**
 * `follows`: the follow graph (social-routes §2), one document per edge
 * (`<follower>:<followee>`), `active` while the follow holds. An unfollow
 * keeps the document inactive rather than deleting it, so a replayed follow
 * cannot resurrect it (applyOnce's position guard lives on the document).
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const FOLLOWS = 'follows';

export interface FollowDoc extends Doc {
  follower_id: string;
  followee_id: string;
  active: boolean;
  /** when the current follow began */
  created_at: string;
}

export const followId = (followerId: string, followeeId: string): string => `${followerId}:${followeeId}`;

export const followsProjection = defineProjection({
  name: 'follows',
  version: 1,
  collections: [FOLLOWS],
  indexes: [
    { collection: FOLLOWS, spec: { keys: { follower_id: 1, active: 1, created_at: -1 } } },
    { collection: FOLLOWS, spec: { keys: { followee_id: 1, active: 1, created_at: -1 } } },
  ],
  on: {
    UserFollowed: (event, writer) => {
      const { follower_id, followee_id, at } = event.data;
      applyOnce(writer, FOLLOWS, followId(follower_id, followee_id), event, { $set: { follower_id, followee_id, active: true, created_at: at } });
    },
    UserUnfollowed: (event, writer) => {
      const { follower_id, followee_id } = event.data;
      applyOnce(writer, FOLLOWS, followId(follower_id, followee_id), event, { $set: { active: false } }, { upsert: false });
    },
  },
});
