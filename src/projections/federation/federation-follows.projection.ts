/**
 * `federationFollows`: the peer nodes this node follows
 * (`federation_following`, `_id` the peer node id, with `active`) and the
 * nodes that said they follow it (`federation_followers`), social-routes §19.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const FEDERATION_FOLLOWING = 'federation_following';
export const FEDERATION_FOLLOWERS = 'federation_followers';

export interface FederationFollowingDoc extends Doc {
  peer_url: string;
  active: boolean;
  followed_at: string;
  followed_by: string;
}

export interface FederationFollowerDoc extends Doc {
  follower_url: string;
  added_at: string;
}

export const federationFollowsProjection = defineProjection({
  name: 'federationFollows',
  version: 1,
  collections: [FEDERATION_FOLLOWING, FEDERATION_FOLLOWERS],
  on: {
    FederationFollowStarted: (event, writer) => {
      const d = event.data;
      applyOnce(writer, FEDERATION_FOLLOWING, d.peer_node_id, event, { $set: { peer_url: d.peer_url, active: true, followed_at: d.followed_at, followed_by: d.followed_by } });
    },
    FederationFollowStopped: (event, writer) => {
      applyOnce(writer, FEDERATION_FOLLOWING, event.data.peer_node_id, event, { $set: { active: false } }, { upsert: false });
    },
    FederationFollowerAdded: (event, writer) => {
      const d = event.data;
      applyOnce(writer, FEDERATION_FOLLOWERS, d.follower_node_id, event, { $set: { follower_url: d.follower_url }, $setOnInsert: { added_at: d.added_at } });
    },
  },
});
