/**
 * Given/then helpers for projection specs: recorded events of the catalogue
 * (src/aggregates/events.ts) with increasing positions, and applying them
 * through the engine's page writer into an embedded read store.
 *
 *   await applyAll(projection, store, recorded('UserRegistered', { user_id: 'u1', ... }));
 *   expect(await store.collection(USERS).findOne({ _id: 'u1' })).toMatchObject({ ... });
 *
 * `recorded` takes the event's data as the catalogue types it, so a spec
 * cannot feed a projection an event the service would never record.
 */
import type { DomainEventOf, DomainEventType } from '../../src/aggregates/events';
import type { JsonObject, RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import { PageWriter } from '../../src/infrastructure/projections/page-writer';
import type { ProjectionDefinition } from '../../src/infrastructure/projections/projection';
import type { ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import type { RecordedOf } from '../../src/projections/support/define-projection';

let position = 0;

export interface RecordedOptions {
  /** when it was recorded and decided (`recordedAt`, `metadata.occurredAt`) */
  at?: string;
  /** its stream; by default each event gets a stream of its own */
  streamId?: string;
  /** the node that recorded it (`metadata.nodeId`) */
  nodeId?: string;
}

/** A recorded event of the catalogue at the next global position. */
export function recorded<T extends DomainEventType>(type: T, data: DomainEventOf<T>['data'], options: RecordedOptions = {}): RecordedEvent & RecordedOf<T> {
  position += 1;
  const at = options.at ?? '2026-04-10T00:00:00.000Z';
  const event: RecordedEvent = {
    streamId: options.streamId ?? `s-${position}`,
    type,
    revision: 0,
    position,
    // the catalogue's data are JSON objects; some are interfaces, which carry no index signature
    data: data as JsonObject,
    recordedAt: at,
    metadata: { eventId: `e${position}`, correlationId: 'c', causationId: null, actor: 'a', nodeId: options.nodeId ?? 'n', occurredAt: at, schemaVersion: 1 },
  };
  // what the store would hand a projection: the type and data of the catalogue entry T
  return event as RecordedEvent & RecordedOf<T>;
}

/** Applies the events in order as one page, then commits it, as the projection engine does. */
export async function applyAll(projection: ProjectionDefinition, store: ReadStore, ...events: RecordedEvent[]): Promise<void> {
  const writer = new PageWriter(store);
  writer.owner = projection.name;
  for (const event of events) if (projection.eventTypes.includes(event.type)) await projection.apply(event, writer);
  await writer.commit();
}
