/**
 * Relays recorded events to the message bus as integration events, for
 * analytics consumers and other nodes (DESIGN.md §2: the event store is the
 * outbox; a missing bus never fails a request). One topic per stream
 * category (`<prefix>.<category>`), keyed by stream id so each stream stays
 * in order; the checkpoint `integrationEvents` is stored only after the bus
 * accepted the batch, so delivery is at-least-once across crashes and outages.
 *
 * Secrets never leave the node: data fields whose names end in `_hash` or
 * `_sha256`, or contain `password` or `secret`, are removed.
 */
import { Logger } from '@nestjs/common';
import { type EventStore, type RecordedEvent, streamCategory, type Subscription } from '../event-store/event-store.port';
import type { ReadStore } from '../read-store/read-store.port';
import type { MessageBus, OutgoingMessage } from './message-bus.port';

export const INTEGRATION_CHECKPOINT = 'integrationEvents';
const RETRY_DELAY_MS = 1000;
const SECRET_FIELD = /(_hash|_sha256)$|password|secret/i;

export interface IntegrationEvent {
  streamId: string;
  type: string;
  revision: number;
  position: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recordedAt: string;
}

export function integrationTopic(prefix: string, streamId: string): string {
  return `${prefix}.${streamCategory(streamId)}`;
}

export function toIntegrationMessage(event: RecordedEvent): OutgoingMessage {
  const data = Object.fromEntries(Object.entries(event.data).filter(([field]) => !SECRET_FIELD.test(field)));
  const value: IntegrationEvent = {
    streamId: event.streamId,
    type: event.type,
    revision: event.revision,
    position: event.position,
    data,
    metadata: event.metadata,
    recordedAt: event.recordedAt,
  };
  const { eventId, correlationId, causationId, schemaVersion, nodeId } = event.metadata;
  return {
    key: event.streamId,
    value,
    headers: {
      'event-type': event.type,
      'event-id': eventId,
      'correlation-id': correlationId,
      'causation-id': causationId ?? '',
      'schema-version': String(schemaVersion),
      'node-id': nodeId,
      'content-type': 'application/json',
    },
  };
}

export class IntegrationEventRelay {
  private readonly logger = new Logger('IntegrationEvents');
  private subscription: Subscription | null = null;
  private position = 0;
  private stopping = false;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly bus: MessageBus,
    private readonly topicPrefix: string,
  ) {}

  async start(): Promise<void> {
    this.stopping = false;
    this.position = (await this.readStore.getCheckpoint(INTEGRATION_CHECKPOINT)) ?? 0;
    this.subscribe();
  }

  currentPosition(): number {
    return this.position;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const running = this.subscription;
    this.subscription = null;
    await running?.stop();
  }

  private subscribe(): void {
    const subscription = this.eventStore.subscribeToAll({ fromPosition: this.position }, async (events) => {
      const byTopic = new Map<string, OutgoingMessage[]>();
      for (const event of events) {
        const topic = integrationTopic(this.topicPrefix, event.streamId);
        byTopic.set(topic, [...(byTopic.get(topic) ?? []), toIntegrationMessage(event)]);
      }
      for (const [topic, messages] of byTopic) await this.bus.publish(topic, messages);
      this.position = events[events.length - 1].position;
      await this.readStore.setCheckpoint(INTEGRATION_CHECKPOINT, this.position);
    });
    this.subscription = subscription;
    subscription.done.catch((error: unknown) => {
      this.logger.warn(`relay paused at ${this.position}: ${error instanceof Error ? error.message : error}; retrying`);
      setTimeout(() => {
        if (!this.stopping && this.subscription === subscription) this.subscribe();
      }, RETRY_DELAY_MS).unref();
    });
  }
}
