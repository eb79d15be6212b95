/**
 * Reads of the §19 routes, from read models only: the sync queue
 * (`syncQueue`), federated posts (`federatedPosts`), follows
 * (`federationFollows`), peers (`networkPeers`) and this node's outbox
 * (the `posts` read model: recent listed posts).
 */
import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { POSTS, type PostDoc } from '../../projections/content/posts.projection';
import { FEDERATED_POSTS, type FederatedPostDoc } from '../../projections/federation/federated-posts.projection';
import { FEDERATION_FOLLOWERS, FEDERATION_FOLLOWING, type FederationFollowerDoc, type FederationFollowingDoc } from '../../projections/federation/federation-follows.projection';
import { NETWORK_PEERS, type NetworkPeerDoc } from '../../projections/federation/network-peers.projection';
import { SYNC_QUEUE_ITEMS, SYNC_QUEUE_STATS, type SyncQueueItemDoc, type SyncQueueStatsDoc } from '../../projections/federation/sync-queue.projection';
import type { Page } from '../common/paging';
import { SYNC_QUEUE_STATUSES, type SyncQueueStatus } from './federation-sync.requests';

export type QueueCounts = Record<SyncQueueStatus | 'dropped', number>;

/** The most peers listed (GET /peers, /peers/exchange) and scored. */
export const PEERS_LISTED = 500;
/** /federation/contribution lists up to 50 peers. */
export const CONTRIBUTORS_LISTED = 50;
/** A peer is active for /federation/contribution when seen within 7 days. */
const ACTIVE_MS = 7 * 24 * 3600_000;

@Injectable()
export class FederationSyncQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async queue(nodeId: string, status: SyncQueueStatus | null, page: Page): Promise<{ items: SyncQueueItemDoc[]; total: number; counts: QueueCounts }> {
    const items = this.store.collection<SyncQueueItemDoc>(SYNC_QUEUE_ITEMS);
    const filter = status ? { status } : {};
    const [docs, total, counts] = await Promise.all([
      items.find(filter, { sort: { created_at: 1, _id: 1 }, skip: page.offset, limit: page.limit }),
      items.countDocuments(filter),
      this.counts(nodeId),
    ]);
    return { items: docs, total, counts };
  }

  async counts(nodeId: string): Promise<QueueCounts> {
    const items = this.store.collection<SyncQueueItemDoc>(SYNC_QUEUE_ITEMS);
    const byStatus = await Promise.all(SYNC_QUEUE_STATUSES.map((status) => items.countDocuments({ status })));
    const stats = await this.stats(nodeId);
    return { ...(Object.fromEntries(SYNC_QUEUE_STATUSES.map((s, i) => [s, byStatus[i]])) as Record<SyncQueueStatus, number>), dropped: stats?.dropped ?? 0 };
  }

  stats(nodeId: string): Promise<SyncQueueStatsDoc | null> {
    return this.store.collection<SyncQueueStatsDoc>(SYNC_QUEUE_STATS).findOne({ _id: nodeId });
  }

  /** This node's recent listed (not deleted, not hidden, not in a private community) posts, newest first. */
  outbox(limit: number): Promise<PostDoc[]> {
    return this.store.collection<PostDoc>(POSTS).find({ listed: true }, { sort: { created_at: -1, _id: -1 }, limit });
  }

  async feed(page: Page): Promise<{ items: FederatedPostDoc[]; total: number }> {
    const posts = this.store.collection<FederatedPostDoc>(FEDERATED_POSTS);
    const [items, total] = await Promise.all([posts.find({}, { sort: { received_at: -1, _id: 1 }, skip: page.offset, limit: page.limit }), posts.countDocuments({})]);
    return { items, total };
  }

  following(): Promise<FederationFollowingDoc[]> {
    return this.store.collection<FederationFollowingDoc>(FEDERATION_FOLLOWING).find({ active: true }, { sort: { followed_at: 1, _id: 1 } });
  }

  followers(): Promise<FederationFollowerDoc[]> {
    return this.store.collection<FederationFollowerDoc>(FEDERATION_FOLLOWERS).find({}, { sort: { added_at: 1, _id: 1 } });
  }

  /** The peers known with a URL, seen last first. */
  peers(): Promise<NetworkPeerDoc[]> {
    return this.store.collection<NetworkPeerDoc>(NETWORK_PEERS).find({ url: { $type: 'string' } }, { sort: { last_seen_at: -1, _id: 1 }, limit: PEERS_LISTED });
  }

  /** Up to 50 peers seen within 7 days, highest contribution (posts shared + items synced) first. */
  async contribution(now: Date): Promise<(NetworkPeerDoc & { contribution_score: number })[]> {
    const since = new Date(now.getTime() - ACTIVE_MS).toISOString();
    const docs = await this.store.collection<NetworkPeerDoc>(NETWORK_PEERS).find({ last_seen_at: { $gte: since } }, { sort: { _id: 1 }, limit: 5000 });
    return docs
      .map((d) => ({ ...d, contribution_score: (d.posts_shared ?? 0) + (d.items_synced ?? 0) }))
      .sort((a, b) => b.contribution_score - a.contribution_score || (b.last_seen_at ?? '').localeCompare(a.last_seen_at ?? '') || a._id.localeCompare(b._id))
      .slice(0, CONTRIBUTORS_LISTED);
  }
}
