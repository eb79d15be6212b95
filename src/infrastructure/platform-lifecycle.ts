/**
 * Starts the background work (projections, sagas, relays to the bus)
 * once every module has registered its projections, where this process is
 * meant to run it, and shuts the platform down in dependency order after the
 * HTTP server stopped taking requests (Nest runs onApplicationShutdown after
 * closing the server): relays, sagas, projections, bus, read store, event store.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { EventRelays } from './bus/event-relay';
import { EVENT_STORE, type EventStore } from './event-store/event-store.port';
import { PROCESS_ROLE, type ProcessRole } from './process-role';
import { waitAtMost } from './wait-at-most';
import { READ_STORE, type ReadStore } from './read-store/read-store.port';
import { MESSAGE_BUS, type MessageBus } from './bus/message-bus.port';
import { ProjectionEngine } from './projections/projection-engine';
import { SagaRunner } from './sagas/saga-runner';

const BUS_CLOSE_TIMEOUT_MS = 5000;

/** What GET /ready answers: ready, or which subsystem it waits for and why. */
export type Readiness = { ready: true } | { ready: false; waiting_for: 'startup' | 'projections' | 'shutdown'; detail: string };

@Injectable()
export class PlatformLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Platform');
  private ready = false;
  private closed = false;
  private draining = false;
  /** the head position the read models must reach before the node is ready (null until start) */
  private catchingUpTo: number | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PROCESS_ROLE) private readonly role: ProcessRole,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly projections: ProjectionEngine,
    private readonly sagas: SagaRunner,
    private readonly relays: EventRelays,
  ) {}

  /** Whether projections, sagas and the relays run in this process. */
  runsBackgroundWork(): boolean {
    return this.role === 'worker' || this.config.projections === 'inline';
  }

  /**
   * Whether this process appends events of its own in the background (sagas,
   * sweepers, schedulers): where the background work runs, except on a
   * regional node replaying central's log, which writes nothing of its own
   * (central's sagas and timers act; their events arrive replicated).
   */
  writesInBackground(): boolean {
    return this.runsBackgroundWork() && this.config.federation.upstreamUrl === null;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.runsBackgroundWork()) {
      // The worker keeps the read models; this node is ready once its stores are open.
      this.ready = true;
      return;
    }
    await this.projections.start();
    if (this.writesInBackground()) await this.sagas.start();
    await this.relays.start();
    // Ready means the read models reflect every event committed before start.
    void this.catchUpThenReady();
  }

  isReady(): boolean {
    return this.ready && !this.closed;
  }

  /** Ready, or the subsystem the node waits for, with a detail for operators. */
  readiness(): Readiness {
    if (this.closed || this.draining) return { ready: false, waiting_for: 'shutdown', detail: 'the node is shutting down' };
    if (this.isReady()) return { ready: true };
    if (this.catchingUpTo === null) return { ready: false, waiting_for: 'startup', detail: 'opening the stores and starting the projections' };
    const head = this.catchingUpTo;
    const behind = this.projections
      .status()
      .filter((p) => p.position < head)
      .map((p) => `${p.name} at ${p.position}${p.lastError ? ` (failing: ${p.lastError})` : ''}`);
    return { ready: false, waiting_for: 'projections', detail: `read models catching up to position ${head}: ${behind.join(', ')}` };
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
    await this.relays.stop();
    await this.sagas.stop();
    await this.projections.stop();
    // A bus that is down or mid-rebalance must not hold the node's shutdown:
    // what it did not deliver is still in the event store (the outbox).
    await this.boundedClose('bus', this.bus.close(), BUS_CLOSE_TIMEOUT_MS);
    await this.readStore.close();
    await this.eventStore.close();
    this.logger.log('stores closed');
  }

  private async boundedClose(what: string, closing: Promise<void>, timeoutMs: number): Promise<void> {
    const failure = closing.catch((error: unknown) => {
      this.logger.warn(`${what} failed to close: ${error instanceof Error ? error.message : String(error)}; going on`);
    });
    if (!(await waitAtMost(failure, timeoutMs))) this.logger.warn(`${what} did not close within ${timeoutMs} ms; going on`);
  }

  private async catchUpThenReady(): Promise<void> {
    const head = await this.eventStore.headPosition();
    this.catchingUpTo = head;
    while (!this.closed && !(await this.projections.catchUpTo(head, 1000))) {
      this.logger.log(`catching up to position ${head}: ${JSON.stringify(this.projections.status())}`);
    }
    if (this.closed) return;
    this.ready = true;
    this.logger.log(`ready (caught up to position ${head})`);
  }
}
