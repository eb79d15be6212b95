/**
 * Gossip of the peer node record, the peers' side: a consumer group per node
 * (`compute-peer-gossip-<nodeId>`, so every node gets every message) records
 * what peers said in the `peer_nodes` read model
 * (src/projections/compute/peer-nodes.read-model.ts); messages from this node
 * itself are ignored, and an older or repeated message changes nothing.
 * PeerGossipRelay sends this node's.
 *
 * Runs where the background work runs (PROJECTIONS=inline or the worker).
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { BusListener } from '../infrastructure/bus/bus-listener';
import { type BusMessage, MESSAGE_BUS, type MessageBus } from '../infrastructure/bus/message-bus.port';
import { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { READ_STORE, type ReadStore } from '../infrastructure/read-store/read-store.port';
import { recordPeerNode } from '../projections/compute/peer-nodes.read-model';
import { type PeerGossipMessage, peerGossipTopic } from './peer-gossip.relay';

function isGossipMessage(value: unknown): value is PeerGossipMessage {
  const m = value as Partial<PeerGossipMessage> | null;
  return (
    !!m &&
    typeof m.node_id === 'string' &&
    /^[A-Za-z0-9_.:-]{1,128}$/.test(m.node_id) &&
    typeof m.position === 'number' &&
    typeof m.cause_alignment === 'string' &&
    typeof m.electricity_rate_kwh === 'number'
  );
}

@Injectable()
export class PeerGossipListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('PeerGossip');
  private listener: BusListener | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly lifecycle: PlatformLifecycle,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.lifecycle.runsBackgroundWork()) return;
    this.listener = new BusListener(
      this.bus,
      { groupId: `compute-peer-gossip-${this.config.nodeId}`, topics: [peerGossipTopic(this.config)], fromBeginning: true },
      (message: BusMessage) => this.record(message.value),
      this.logger,
    );
    this.listener.start();
  }

  onModuleDestroy(): void {
    void this.listener?.stop();
  }

  /** Applies one peer's message to `peer_nodes`; exported behaviour for tests. */
  async record(message: unknown): Promise<void> {
    if (!isGossipMessage(message) || message.node_id === this.config.nodeId) return;
    await recordPeerNode(this.readStore, {
      node_id: message.node_id,
      node_tier: typeof message.node_tier === 'string' ? message.node_tier : 'flat',
      cause_alignment: message.cause_alignment,
      electricity_rate_kwh: message.electricity_rate_kwh,
      joined: message.joined,
      public_key: typeof message.public_key === 'string' && /^[0-9a-f]{64}$/.test(message.public_key) ? message.public_key : undefined,
      position: message.position,
      seen_at: new Date().toISOString(),
    });
  }
}
