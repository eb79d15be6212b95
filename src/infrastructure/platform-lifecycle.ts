/**
 * Starts the read side once every module has registered its projections, and
 * shuts the platform down in dependency order after the HTTP server stopped
 * taking requests (Nest runs onApplicationShutdown after closing the server):
 * sagas, projections, bus, read store, event store.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from './event-store/event-store.port';
import { READ_STORE, type ReadStore } from './read-store/read-store.port';
import { MESSAGE_BUS, type MessageBus } from './bus/message-bus.port';
import { ProjectionRunner } from './projections/projection-runner';
import { SagaEventForwarder } from './sagas/saga-event-forwarder';

@Injectable()
export class PlatformLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Platform');
  private ready = false;
  private closed = false;
  private draining = false;

  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly projections: ProjectionRunner,
    private readonly sagas: SagaEventForwarder,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.projections.start();
    await this.sagas.start();
    // Ready means the read models reflect every event committed before start.
    void this.catchUpThenReady();
  }

  isReady(): boolean {
    return this.ready && !this.closed;
  }

  /** Called on SIGTERM before the server closes, so load balancers stop sending traffic. */
  beginDrain(): void {
    this.ready = false;
    this.draining = true;
  }

  isDraining(): boolean {
    return this.draining;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ready = false;
    await this.sagas.stop();
    await this.projections.stop();
    await this.bus.close();
    await this.readStore.close();
    await this.eventStore.close();
    this.logger.log('stores closed');
  }

  private async catchUpThenReady(): Promise<void> {
    const head = await this.eventStore.headPosition();
    while (!this.closed && !(await this.projections.catchUpTo(head, 1000))) {
      this.logger.log(`catching up to position ${head}: ${JSON.stringify(this.projections.status())}`);
    }
    if (this.closed) return;
    this.ready = true;
    this.logger.log(`ready (caught up to position ${head})`);
  }
}
