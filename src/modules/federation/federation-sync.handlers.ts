/**
 * Command handlers of the §19 sync queue, federated posts, follows and
 * peers: each runs a decider through the CommandExecutor
 * (src/aggregates/federation/).
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { federatedPostDecider, federatedPostId, federatedPostStreamId } from '../../aggregates/federation/federated-post';
import { federationFollowDecider, federationFollowerStreamId, federationFollowingStreamId } from '../../aggregates/federation/federation-follow';
import { networkPeerDecider, networkPeerStreamId } from '../../aggregates/federation/network-peer';
import { isSyncOperationType, type SyncItem, syncQueueDecider, syncQueueStreamId } from '../../aggregates/federation/sync-queue';
import { isSettled, type SyncReceiptCommand, syncReceiptDecider, syncReceiptStreamId } from '../../aggregates/federation/sync-receipt';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { type CommandContext, CommandExecutor } from '../common/command-executor';
import {
  AddFollower,
  AnnouncePeer,
  EnqueueSyncItem,
  FollowPeer,
  LearnPeers,
  ReceiveFederatedPost,
  ReceiveSyncBatch,
  SettleSyncBatch,
  StartSyncBatch,
  type IncomingSyncItem,
  type SyncBatchResult,
  UnfollowPeer,
} from './federation-sync.commands';
import { readFederatedPost } from './federation-sync.requests';
import { HierarchySyncEffects } from './hierarchy-sync-effects';
import { RegionalWriteApplier } from './regional-write-applier';
import type { ForwardedReply } from './sync-batch-client';

/** An announcement repeating the last one within this time records nothing. */
export const PEER_REFRESH_AFTER_MS = 60_000;
/** An item in progress this long (a sender that stopped mid-batch) is sent again: twice the request bound. */
const staleAfter = (config: AppConfig): number => config.federation.sync.timeoutMs * 2;

@CommandHandler(EnqueueSyncItem)
export class EnqueueSyncItemHandler implements ICommandHandler<EnqueueSyncItem> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ payload, context }: EnqueueSyncItem): Promise<{ queued: boolean; dropped: boolean }> {
    const { sync } = this.config.federation;
    const { events } = await this.executor.execute(
      syncQueueDecider,
      syncQueueStreamId(this.config.nodeId),
      { kind: 'enqueue', itemId: payload.itemId, nodeId: this.config.nodeId, targetTier: sync.parentTier, operationType: payload.operationType, payload: payload.payload, cap: sync.queueCap },
      context,
    );
    return { queued: events.some((e) => e.type === 'SyncItemQueued'), dropped: events.some((e) => e.type === 'SyncItemDropped') };
  }
}

@CommandHandler(StartSyncBatch)
export class StartSyncBatchHandler implements ICommandHandler<StartSyncBatch> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ context }: StartSyncBatch): Promise<SyncItem[]> {
    const { events, state } = await this.executor.execute(
      syncQueueDecider,
      syncQueueStreamId(this.config.nodeId),
      { kind: 'startBatch', nodeId: this.config.nodeId, batchSize: this.config.federation.sync.batchSize, staleAfterMs: staleAfter(this.config) },
      context,
      { readYourWrites: false },
    );
    const sent = events.find((e) => e.type === 'SyncBatchSent');
    if (!sent || sent.type !== 'SyncBatchSent') return [];
    return sent.data.item_ids.map((id) => state.items.get(id)).filter((item): item is SyncItem => item !== undefined);
  }
}

@CommandHandler(SettleSyncBatch)
export class SettleSyncBatchHandler implements ICommandHandler<SettleSyncBatch> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ payload, context }: SettleSyncBatch): Promise<void> {
    await this.executor.execute(syncQueueDecider, syncQueueStreamId(this.config.nodeId), { kind: 'settleBatch', nodeId: this.config.nodeId, ...payload }, context);
  }
}

/** Stores a federated post once; shared by the inbox, the pull and a synced `sync_post`. */
async function receivePost(executor: CommandExecutor, command: ReceiveFederatedPost['payload'], context: CommandContext): Promise<{ federated_post_id: string; created: boolean }> {
  const id = federatedPostId(command.post.origin_node_id, command.post.origin_post_id);
  const { events } = await executor.execute(federatedPostDecider, federatedPostStreamId(id), { kind: 'receive', ...command }, context);
  return { federated_post_id: id, created: events.length > 0 };
}

@CommandHandler(ReceiveFederatedPost)
export class ReceiveFederatedPostHandler implements ICommandHandler<ReceiveFederatedPost> {
  constructor(private readonly executor: CommandExecutor) {}

  execute({ payload, context }: ReceiveFederatedPost): Promise<{ federated_post_id: string; created: boolean }> {
    return receivePost(this.executor, payload, context);
  }
}

/**
 * A child's batch, item by item: an item settled here (completed or dead) is
 * processed without running again; otherwise its effect runs (sync_post: the
 * post lands as a federated post; regional_write: a regional node's client
 * write runs here, its reply goes back in `replies`; update_stats and
 * register_node: the sender's capacity report and its registration as a
 * local node, as the §18 routes take them (hierarchy-sync-effects.ts); the
 * other §19 types, and unknown ones, are recorded) and the outcome is recorded on the item's
 * receipt. A payload that cannot be applied is an error for that item (dead
 * here at the 5th). One item runs at a time in this process (a copy of it in
 * another batch waits for the first and is then settled).
 */
@CommandHandler(ReceiveSyncBatch)
export class ReceiveSyncBatchHandler implements ICommandHandler<ReceiveSyncBatch> {
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(
    private readonly executor: CommandExecutor,
    private readonly regionalWrites: RegionalWriteApplier,
    private readonly hierarchy: HierarchySyncEffects,
  ) {}

  async execute({ payload, context }: ReceiveSyncBatch): Promise<SyncBatchResult> {
    const result: SyncBatchResult = { processed: [], errors: [...payload.invalid], replies: [] };
    for (const item of payload.items) {
      const stream = syncReceiptStreamId(payload.senderNodeId, item.id);
      while (this.running.has(stream)) await this.running.get(stream)!.catch(() => undefined);
      const receiving = this.receive(payload.senderNodeId, stream, item, context, result);
      this.running.set(stream, receiving);
      try {
        await receiving;
      } finally {
        this.running.delete(stream);
      }
    }
    return result;
  }

  private async receive(sender: string, stream: string, item: IncomingSyncItem, context: CommandContext, result: SyncBatchResult): Promise<void> {
    const { state } = await this.executor.load(syncReceiptDecider, stream);
    if (isSettled(state)) {
      result.processed.push(item.id);
      return;
    }
    const { outcome, reply } = await this.apply(sender, item, context);
    const command: SyncReceiptCommand = { kind: 'receive', senderNodeId: sender, itemId: item.id, operationType: item.operation_type, outcome };
    const { state: after } = await this.executor.execute(syncReceiptDecider, stream, command, context);
    // completed now (or by a copy of this batch that got there first); a refusal is this item's error, also the one that made it dead
    if (after.status === 'completed') {
      result.processed.push(item.id);
      if (reply) result.replies.push({ id: item.id, ...reply });
    } else result.errors.push({ id: item.id, error: outcome.ok ? 'not applied' : outcome.error });
  }

  private async apply(sender: string, item: IncomingSyncItem, context: CommandContext): Promise<{ outcome: SyncReceiptCommand['outcome']; reply?: ForwardedReply }> {
    if (!isSyncOperationType(item.operation_type)) return { outcome: { ok: true, outcome: 'unknown_type' } };
    try {
      switch (item.operation_type) {
        case 'sync_post':
          await receivePost(this.executor, { post: readFederatedPost(item.payload, sender), via: 'sync' }, context);
          return { outcome: { ok: true, outcome: 'applied' } };
        case 'regional_write':
          return { outcome: { ok: true, outcome: 'applied' }, reply: await this.regionalWrites.apply(sender, item.payload) };
        case 'update_stats':
          await this.hierarchy.updateStats(sender, item.payload, context);
          return { outcome: { ok: true, outcome: 'applied' } };
        case 'register_node':
          await this.hierarchy.registerNode(sender, item.payload, context);
          return { outcome: { ok: true, outcome: 'applied' } };
        default:
          return { outcome: { ok: true, outcome: 'recorded' } };
      }
    } catch (error) {
      // a payload this node refuses (malformed, not the sender's, a node it does not know, another key) is this item's error
      if (error instanceof DomainError && ['invalid', 'forbidden', 'not_found', 'conflict'].includes(error.kind)) return { outcome: { ok: false, error: error.message } };
      // a regional write that failed here (5xx) is retried by its sender
      if (item.operation_type === 'regional_write' && error instanceof Error) return { outcome: { ok: false, error: error.message.slice(0, 500) } };
      throw error;
    }
  }
}

@CommandHandler(FollowPeer)
export class FollowPeerHandler implements ICommandHandler<FollowPeer> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: FollowPeer): Promise<{ created: boolean }> {
    const { events } = await this.executor.execute(federationFollowDecider, federationFollowingStreamId(payload.peerNodeId), { kind: 'follow', ...payload }, context);
    return { created: events.length > 0 };
  }
}

@CommandHandler(UnfollowPeer)
export class UnfollowPeerHandler implements ICommandHandler<UnfollowPeer> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: UnfollowPeer): Promise<{ removed: boolean }> {
    const { events } = await this.executor.execute(federationFollowDecider, federationFollowingStreamId(payload.peerNodeId), { kind: 'unfollow', ...payload }, context);
    return { removed: events.length > 0 };
  }
}

@CommandHandler(AddFollower)
export class AddFollowerHandler implements ICommandHandler<AddFollower> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: AddFollower): Promise<{ created: boolean }> {
    const { events } = await this.executor.execute(federationFollowDecider, federationFollowerStreamId(payload.followerNodeId), { kind: 'addFollower', ...payload }, context);
    return { created: events.length > 0 };
  }
}

@CommandHandler(AnnouncePeer)
export class AnnouncePeerHandler implements ICommandHandler<AnnouncePeer> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: AnnouncePeer): Promise<{ is_new: boolean }> {
    const stream = networkPeerStreamId(payload.peer.node_id);
    const before = await this.executor.load(networkPeerDecider, stream);
    const { events } = await this.executor.execute(networkPeerDecider, stream, { kind: 'announce', peer: payload.peer, refreshAfterMs: PEER_REFRESH_AFTER_MS }, context);
    const announced = events.find((e) => e.type === 'PeerAnnounced');
    return { is_new: announced?.type === 'PeerAnnounced' ? announced.data.is_new : !before.state.known };
  }
}

@CommandHandler(LearnPeers)
export class LearnPeersHandler implements ICommandHandler<LearnPeers> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ payload, context }: LearnPeers): Promise<{ learned: number }> {
    let learned = 0;
    for (const peer of payload.peers) {
      if (peer.node_id === this.config.nodeId) continue;
      const { events } = await this.executor.execute(networkPeerDecider, networkPeerStreamId(peer.node_id), { kind: 'learn', peer, from: payload.from }, context);
      learned += events.length;
    }
    return { learned };
  }
}
