/**
 * Given helpers for process-manager, relay and listener specs: a recorded
 * event whose fields a saga reads (node, stream, correlation) are options.
 */
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';

export interface RecordedEventOptions {
  streamId?: string;
  position?: number;
  /** the node that recorded it (default node-a) */
  nodeId?: string;
  /** default `ev<position>` */
  eventId?: string;
  correlationId?: string;
  occurredAt?: string;
}

export function recordedEvent(type: string, data: Record<string, unknown>, options: RecordedEventOptions = {}): RecordedEvent {
  const position = options.position ?? 1;
  return {
    streamId: options.streamId ?? 's-1',
    type,
    revision: 0,
    position,
    data: data as RecordedEvent['data'],
    recordedAt: 't',
    metadata: {
      eventId: options.eventId ?? `ev${position}`,
      correlationId: options.correlationId ?? 'c',
      causationId: null,
      actor: 'a',
      nodeId: options.nodeId ?? 'node-a',
      occurredAt: options.occurredAt ?? 't',
      schemaVersion: 1,
    },
  };
}
