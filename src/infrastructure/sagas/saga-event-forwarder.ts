/**
 * Feeds recorded events to the @nestjs/cqrs EventBus from a checkpointed
 * event-store subscription, so every @Saga() stream sees every recorded event
 * at least once, also across restarts: the checkpoint is stored only after the
 * batch was published.
 */
import type { EventBus } from '@nestjs/cqrs';
import type { EventStore } from '../event-store/event-store.port';
import { CheckpointedSubscription } from '../eventsourcing/checkpointed-subscription';
import type { ReadStore } from '../read-store/read-store.port';
import { RecordedDomainEvent } from './recorded-event';

export const SAGA_CHECKPOINT = 'sagas';

export class SagaEventForwarder extends CheckpointedSubscription {
  constructor(eventStore: EventStore, readStore: ReadStore, eventBus: EventBus) {
    super(eventStore, readStore, SAGA_CHECKPOINT, async (events) => {
      for (const event of events) eventBus.publish(new RecordedDomainEvent(event));
    });
  }
}
