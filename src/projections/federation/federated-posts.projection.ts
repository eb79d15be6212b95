/**
 * `federatedPosts`: the posts received from other nodes (social-routes §19:
 * inbox, pull, a synced `sync_post`), `federated_posts` keyed by the
 * federated post id, newest first for GET /federation/feed.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const FEDERATED_POSTS = 'federated_posts';

export interface FederatedPostDoc extends Doc {
  origin_node_id: string;
  origin_post_id: string;
  origin_url: string | null;
  author_id: string | null;
  author_name: string | null;
  title: string;
  content: string;
  content_type: string;
  published_at: string | null;
  received_at: string;
  via: string;
  signed: boolean;
}

export const federatedPostsProjection = defineProjection({
  name: 'federatedPosts',
  version: 1,
  collections: [FEDERATED_POSTS],
  indexes: [{ collection: FEDERATED_POSTS, spec: { keys: { received_at: -1 } } }],
  on: {
    FederatedPostReceived: (event, writer) => {
      const { federated_post_id: id, signature, ...d } = event.data;
      applyOnce(writer, FEDERATED_POSTS, id, event, { $set: { ...d, signed: signature !== null } });
    },
  },
});
