/**
 * Relays recorded events to the message bus as integration events, for
 * analytics consumers and other nodes (DESIGN.md §2: the event store is the
 * outbox; a missing bus never fails a request). One topic per stream
 * category (`<prefix>.<category>`), keyed by stream id so each stream stays
 * in order; the checkpoint `integrationEvents` is stored only after the bus
 * accepted the batch, so delivery is at-least-once across crashes and outages.
 *
 * Secrets never leave the node: data fields whose names end in `_hash` or
 * `_sha256`, or contain `password` or `secret`, are removed. Whole stream
 * categories that are private to their users (a feature registers them with
 * `keepPrivate`, e.g. the encounter swipes) are never relayed at all.
 */
import { type RecordedEvent, streamCategory } from '../event-store/event-store.port';
import type { EventRelay } from './event-relay';
import { traceHeaders } from './trace-headers';
import type { OutgoingMessage } from './message-bus.port';

export const INTEGRATION_CHECKPOINT = 'integrationEvents';
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
      ...traceHeaders(event),
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

export class IntegrationEventRelay implements EventRelay {
  readonly name = INTEGRATION_CHECKPOINT;
  readonly startAt = 'beginning';
  private readonly privateCategories = new Set<string>();

  constructor(private readonly topicPrefix: string) {}

  /** Stream categories whose events never leave the node as integration events. Register before start. */
  keepPrivate(...categories: readonly string[]): void {
    for (const category of categories) this.privateCategories.add(category);
  }

  route(events: readonly RecordedEvent[]): Map<string, OutgoingMessage[]> {
    const byTopic = new Map<string, OutgoingMessage[]>();
    for (const event of events) {
      if (this.privateCategories.has(streamCategory(event.streamId))) continue;
      const topic = integrationTopic(this.topicPrefix, event.streamId);
      let messages = byTopic.get(topic);
      if (!messages) byTopic.set(topic, (messages = []));
      messages.push(toIntegrationMessage(event));
    }
    return byTopic;
  }
}
