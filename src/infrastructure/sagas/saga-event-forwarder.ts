/**
 * Feeds recorded events to the @nestjs/cqrs EventBus from a checkpointed
 * event-store subscription, so every @Saga() stream sees every recorded event
 * at least once, also across restarts: the checkpoint is stored only after the
 * batch was published.
 */
import { Logger } from '@nestjs/common';
import type { EventBus } from '@nestjs/cqrs';
import type { EventStore, Subscription } from '../event-store/event-store.port';
import type { ReadStore } from '../read-store/read-store.port';
import { RecordedDomainEvent } from './recorded-event';

export const SAGA_CHECKPOINT = 'sagas';
const RETRY_DELAY_MS = 500;

export class SagaEventForwarder {
  private readonly logger = new Logger('Sagas');
  private subscription: Subscription | null = null;
  private position = 0;
  private stopping = false;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly eventBus: EventBus,
  ) {}

  async start(): Promise<void> {
    this.stopping = false;
    this.position = (await this.readStore.getCheckpoint(SAGA_CHECKPOINT)) ?? 0;
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
      for (const event of events) this.eventBus.publish(new RecordedDomainEvent(event));
      this.position = events[events.length - 1].position;
      await this.readStore.setCheckpoint(SAGA_CHECKPOINT, this.position);
    });
    this.subscription = subscription;
    subscription.done.catch((error: unknown) => {
      this.logger.error(`forwarding failed at ${this.position}: ${error instanceof Error ? error.message : error}`);
      setTimeout(() => {
        if (!this.stopping && this.subscription === subscription) this.subscribe();
      }, RETRY_DELAY_MS).unref();
    });
  }
}
