/**
 * Given/then helpers for projection specs: recorded events with increasing
 * positions, and applying them through the real batched writer into an
 * embedded read store.
 */
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import { PageWriter } from '../../src/infrastructure/projections/page-writer';
import type { ProjectionDefinition } from '../../src/infrastructure/projections/projection';
import type { ReadStore } from '../../src/infrastructure/read-store/read-store.port';

let position = 0;

/** A recorded event at the next global position (each call a new stream unless `streamId` is given). */
export function recorded(type: string, data: Record<string, unknown>, at = '2026-04-10T00:00:00.000Z', streamId?: string): RecordedEvent {
  position += 1;
  return {
    streamId: streamId ?? `s-${position}`,
    type,
    revision: 0,
    position,
    data: data as RecordedEvent['data'],
    recordedAt: at,
    metadata: { eventId: `e${position}`, correlationId: 'c', causationId: null, actor: 'a', nodeId: 'n', occurredAt: at, schemaVersion: 1 },
  };
}

/** Applies the events in order as one page, then commits it, as the projection engine does. */
export async function applyAll(projection: ProjectionDefinition, store: ReadStore, ...events: RecordedEvent[]): Promise<void> {
  const writer = new PageWriter(store);
  writer.owner = projection.name;
  for (const event of events) if (projection.eventTypes.includes(event.type)) await projection.apply(event, writer);
  await writer.commit();
}
