/**
 * A subscription to all events that resumes from a checkpoint stored in the
 * read store, saved after each handled batch (at-least-once across restarts).
 * A failing batch pauses the subscription and retries it from the last
 * checkpoint, so nothing is skipped. Used by the SagaRunner (checkpoint
 * `sagas`) and by the relays that carry recorded events to the bus
 * (IntegrationEventRelay and `src/sagas/*.relay.ts`). Projections do not
 * use it: the ProjectionEngine reads the log once for all of them.
 */
import { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import type { ReadStore } from '../read-store/read-store.port';

export class CheckpointedSubscription {
  private readonly logger: Logger;
  private subscription: Subscription | null = null;
  private position = 0;
  private stopping = false;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly checkpoint: string,
    private readonly handle: (events: RecordedEvent[]) => Promise<void>,
    private readonly retryDelayMs = 500,
    /** events handed to one `handle` call at most (the store's default when absent) */
    private readonly maxBatchSize?: number,
  ) {
    this.logger = new Logger(checkpoint);
  }

  async start(): Promise<void> {
    this.stopping = false;
    this.position = (await this.readStore.getCheckpoint(this.checkpoint)) ?? 0;
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
    const subscription = this.eventStore.subscribeToAll({ fromPosition: this.position, maxBatchSize: this.maxBatchSize }, async (events) => {
      await this.handle(events);
      this.position = events[events.length - 1].position;
      await this.readStore.setCheckpoint(this.checkpoint, this.position);
    });
    this.subscription = subscription;
    subscription.done.catch((error: unknown) => {
      this.logger.warn(`paused at ${this.position}: ${error instanceof Error ? error.message : String(error)}; retrying`);
      setTimeout(() => {
        if (!this.stopping && this.subscription === subscription) this.subscribe();
      }, this.retryDelayMs).unref();
    });
  }
}
