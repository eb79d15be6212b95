/**
 * How a recorded event travels on the @nestjs/cqrs EventBus. Sagas filter with
 * `ofRecordedType('UserRegistered', ...)` rather than `ofType(Class)`, because
 * recorded events are data from the store, not instances of per-type classes.
 */
import type { IEvent } from '@nestjs/cqrs';
import { filter, type OperatorFunction } from 'rxjs';
import type { JsonObject, RecordedEvent } from '../event-store/event-store.port';

export class RecordedDomainEvent<D extends JsonObject = JsonObject> implements IEvent {
  constructor(readonly recorded: RecordedEvent<D>) {}

  get type(): string {
    return this.recorded.type;
  }
}

export function ofRecordedType<D extends JsonObject = JsonObject>(
  ...types: string[]
): OperatorFunction<IEvent, RecordedDomainEvent<D>> {
  return filter(
    (event: IEvent): event is RecordedDomainEvent<D> =>
      event instanceof RecordedDomainEvent && types.includes(event.recorded.type),
  );
}
