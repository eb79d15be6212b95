/**
 * The one way a read model is written: a handler per event type, typed from
 * the event catalogue (src/aggregates/events.ts). The event types the engine
 * routes to the projection are the handlers' keys, so the list cannot drift
 * from the cases handled; a handler for an unknown type, or a misspelt field,
 * does not compile.
 *
 *   export const usersProjection = defineProjection({
 *     name: 'users',
 *     version: 1,
 *     collections: [USERS],
 *     on: {
 *       UserRegistered: (event, writer) => applyOnce(writer, USERS, event.data.user_id, event, { $set: {...} }),
 *       UserRoleChanged: (event, writer) => ...,
 *     },
 *   });
 *
 * A handler shared by several types takes `RecordedOf<'A' | 'B'>`, a union
 * that still narrows on `event.type`.
 */
import type { DomainEventOf, DomainEventType } from '../../aggregates/events';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../../infrastructure/projections/projection';
import type { IndexSpec } from '../../infrastructure/read-store/read-store.port';

/** A recorded event of the catalogue, its data typed by its type (distributes over unions). */
export type RecordedOf<T extends DomainEventType> = T extends DomainEventType
  ? Omit<RecordedEvent, 'type' | 'data'> & { type: T; data: DomainEventOf<T>['data'] }
  : never;

export type ProjectionHandler<T extends DomainEventType> = (event: RecordedOf<T>, writer: ProjectionWriter) => void | Promise<void>;

export type ProjectionHandlers = { [T in DomainEventType]?: ProjectionHandler<T> };

export interface ProjectionSpec {
  /** stable name; also the checkpoint's name */
  name: string;
  /** bump when a handler changes meaning: the read model is dropped and rebuilt at start */
  version: number;
  /** collections the projection owns (dropped on rebuild) */
  collections: readonly string[];
  indexes?: readonly { collection: string; spec: IndexSpec }[];
  /** one handler per event type the read model applies */
  on: ProjectionHandlers;
}

export function defineProjection(spec: ProjectionSpec): ProjectionDefinition {
  const handlers = spec.on as Record<string, (event: RecordedEvent, writer: ProjectionWriter) => void | Promise<void>>;
  const eventTypes = Object.keys(handlers);
  if (eventTypes.length === 0) throw new Error(`Projection ${spec.name} handles no event type`);
  return {
    name: spec.name,
    version: spec.version,
    collections: spec.collections,
    indexes: spec.indexes,
    eventTypes,
    apply: (event, writer) => handlers[event.type]?.(event, writer),
  };
}
