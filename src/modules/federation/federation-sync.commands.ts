/** Commands of the sync queue, federated posts, follows and peers (social-routes §19), on the @nestjs/cqrs CommandBus. */
import type { FederatedPostFields, FederatedVia } from '../../aggregates/federation/federated-post';
import type { PeerDescription } from '../../aggregates/federation/network-peer';
import type { SyncItem, SyncOperationType } from '../../aggregates/federation/sync-queue';
import { DomainCommand } from '../common/domain-command';
import type { ForwardedReply } from './sync-batch-client';

/** Queues an item for the parent (this node's queue); `queued` false when the id is live already, `dropped` when the cap refused it. */
export class EnqueueSyncItem extends DomainCommand<{ itemId: string; operationType: SyncOperationType; payload: Record<string, unknown> }, { queued: boolean; dropped: boolean }> {}

/** Marks the due items in progress and gives them (with payloads) to send; none when nothing is due. */
export class StartSyncBatch extends DomainCommand<Record<string, never>, SyncItem[]> {}

/** Records the parent's answer to a batch: ids in `processed` complete, the other attempted ids fail (dead at max_retries). */
export class SettleSyncBatch extends DomainCommand<{ attempted: string[]; processed: string[]; errors: Record<string, string>; batchError: string | null }> {}

/** One item of a batch a child node sent to POST /hierarchy/sync, as read from the body. */
export interface IncomingSyncItem {
  id: string;
  operation_type: string;
  payload: unknown;
}

export interface SyncBatchResult {
  processed: string[];
  errors: { id: string; error: string }[];
  /** central's replies to the `regional_write` items it ran (an addition to §19's reply) */
  replies: ({ id: string } & ForwardedReply)[];
}

/** Applies a child's batch here, each item at most once (its receipt stream). */
export class ReceiveSyncBatch extends DomainCommand<{ senderNodeId: string; items: IncomingSyncItem[]; invalid: { id: string; error: string }[] }, SyncBatchResult> {}

/** Stores a post another node published, once (inbox, pull, sync_post). */
export class ReceiveFederatedPost extends DomainCommand<{ post: FederatedPostFields; via: FederatedVia }, { federated_post_id: string; created: boolean }> {}

export class FollowPeer extends DomainCommand<{ peerNodeId: string; peerUrl: string; by: string }, { created: boolean }> {}
export class UnfollowPeer extends DomainCommand<{ peerNodeId: string; by: string }, { removed: boolean }> {}
export class AddFollower extends DomainCommand<{ followerNodeId: string; followerUrl: string }, { created: boolean }> {}

/** A node announced itself; `is_new` when this node did not know it. */
export class AnnouncePeer extends DomainCommand<{ peer: PeerDescription }, { is_new: boolean }> {}

/** Peers another node listed (second-hand): recorded for the nodes not known yet; how many were new. */
export class LearnPeers extends DomainCommand<{ peers: PeerDescription[]; from: string }, { learned: number }> {}
