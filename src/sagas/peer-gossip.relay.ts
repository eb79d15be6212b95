/**
 * Gossip of the peer node record, this node's side (SPEC §2.4:
 * cause_alignment and electricity_rate_kwh are gossiped to peers): a
 * checkpointed subscription (`computePeerGossip`) to this node's event store
 * publishes each `PeerNodeRecordUpdated` / `ComputeProviderJoined` of this
 * node to the topic `<KAFKA_TOPIC_PREFIX>.compute.peer-nodes`, keyed by node
 * id, with the effective values (environment > stored > default). The
 * checkpoint moves only after the bus accepted the batch: an outage delays
 * gossip, never a request. PeerGossipListener records what the peers say.
 *
 * Runs where the background work runs (PROJECTIONS=inline or the worker).
 */
import { Inject, Injectable } from '@nestjs/common';
import { COMPUTE_DEFAULTS, type PeerSettings } from '../aggregates/compute/compute-fields';
import { COMPUTE_OVERRIDES, type ComputeOverrides } from '../config/compute.config';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { EventRelay } from '../infrastructure/bus/event-relay';
import type { OutgoingMessage } from '../infrastructure/bus/message-bus.port';
import { traceHeaders } from '../infrastructure/bus/trace-headers';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { NodeKey } from '../infrastructure/node-identity/node-key';

export const PEER_GOSSIP_CHECKPOINT = 'computePeerGossip';
const GOSSIPED_TYPES = new Set(['PeerNodeRecordUpdated', 'ComputeProviderJoined']);

export interface PeerGossipMessage {
  node_id: string;
  node_tier: string;
  cause_alignment: string;
  electricity_rate_kwh: number;
  /** true once the node joined as a provider; absent when this message does not say */
  joined?: boolean;
  /** the node's identity key (Ed25519, 32 bytes hex): peers pin the first they see (node-signing-key.ts) */
  public_key?: string;
  event_type: string;
  /** the origin node's global log position of the event: orders messages per node */
  position: number;
  occurred_at: string;
}

export function peerGossipTopic(config: AppConfig): string {
  return `${config.kafka?.topicPrefix ?? 'svc.events'}.compute.peer-nodes`;
}

/** The gossip message for one of this node's recorded events, with the effective peer values. */
export function toGossipMessage(event: RecordedEvent, overrides: ComputeOverrides): PeerGossipMessage {
  const data = event.data as { node_id: string; node_tier: string; record?: Partial<PeerSettings> };
  const record = data.record ?? {};
  const message: PeerGossipMessage = {
    node_id: data.node_id,
    node_tier: data.node_tier,
    cause_alignment: overrides.cause_alignment ?? record.cause_alignment ?? COMPUTE_DEFAULTS.cause_alignment,
    electricity_rate_kwh: overrides.electricity_rate_kwh ?? record.electricity_rate_kwh ?? COMPUTE_DEFAULTS.electricity_rate_kwh,
    event_type: event.type,
    position: event.position,
    occurred_at: event.metadata.occurredAt,
  };
  if (event.type === 'ComputeProviderJoined') message.joined = true;
  return message;
}

@Injectable()
export class PeerGossipRelay implements EventRelay {
  readonly name = PEER_GOSSIP_CHECKPOINT;
  readonly startAt = 'beginning';

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(COMPUTE_OVERRIDES) private readonly overrides: ComputeOverrides,
    private readonly nodeKey: NodeKey,
  ) {}

  route(events: readonly RecordedEvent[]): Map<string, OutgoingMessage[]> {
    const messages = events
      .filter((e) => GOSSIPED_TYPES.has(e.type) && (e.data as { node_id?: string }).node_id === this.config.nodeId)
      .map((e) => ({ key: this.config.nodeId, value: { ...toGossipMessage(e, this.overrides), public_key: this.nodeKey.publicKeyHex }, headers: { ...traceHeaders(e), 'event-type': e.type, 'node-id': this.config.nodeId } }));
    return new Map([[peerGossipTopic(this.config), messages]]);
  }
}
