/**
 * `networkPeers`: the peer nodes this node knows for discovery and routing
 * (social-routes §19, /peers), `network_peers` keyed by node id: what each
 * announced of itself (or another node said of it: `source` announced or
 * exchange), when it was last seen, and what it contributed here
 * (`posts_shared`: federated posts received from it; `items_synced`: sync
 * items of it applied here) for /federation/contribution; hearing from it
 * that way moves `last_seen_at` too. Not the compute
 * gossip's `peer_nodes` (src/projections/compute/peer-nodes.read-model.ts).
 */
import type { PeerDescription } from '../../aggregates/federation/network-peer';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const NETWORK_PEERS = 'network_peers';

export interface NetworkPeerDoc extends Doc, Partial<Omit<PeerDescription, 'node_id'>> {
  source?: 'announced' | 'exchange';
  first_seen_at?: string;
  last_seen_at?: string;
  posts_shared?: number;
  items_synced?: number;
}

export const networkPeersProjection = defineProjection({
  name: 'networkPeers',
  version: 1,
  collections: [NETWORK_PEERS],
  indexes: [{ collection: NETWORK_PEERS, spec: { keys: { last_seen_at: -1 } } }],
  on: {
    PeerAnnounced: (event, writer) => {
      const { node_id, is_new: _n, announced_at, ...description } = event.data;
      applyOnce(writer, NETWORK_PEERS, node_id, event, { $set: { ...description, source: 'announced', last_seen_at: announced_at }, $setOnInsert: { first_seen_at: announced_at } });
    },
    PeerLearned: (event, writer) => {
      const { node_id, learned_from: _f, learned_at, ...description } = event.data;
      applyOnce(writer, NETWORK_PEERS, node_id, event, { $set: { ...description, source: 'exchange', last_seen_at: learned_at }, $setOnInsert: { first_seen_at: learned_at } });
    },
    FederatedPostReceived: (event, writer) => {
      applyOnce(writer, NETWORK_PEERS, event.data.origin_node_id, event, { $inc: { posts_shared: 1 }, $set: { last_seen_at: event.data.received_at } });
    },
    SyncItemReceived: (event, writer) => {
      applyOnce(writer, NETWORK_PEERS, event.data.sender_node_id, event, { $inc: { items_synced: 1 }, $set: { last_seen_at: event.data.received_at } });
    },
  },
});
