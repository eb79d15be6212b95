/**
 * Relays: recorded events → bus messages. The event store is the outbox
 * (DESIGN.md §2): a request never touches the bus, and a bus outage never
 * fails one. Each relay has its own checkpoint, moved only after the bus
 * accepted the messages of a page, so an outage delays messages and loses
 * none; one relay stuck on a topic does not hold back the others.
 *
 * A relay only says which messages a page of events calls for (`route`);
 * `EventRelays` runs them all, where the background work runs, and stops
 * them on shutdown (bounded: a publish blocked by an outage must not hold the
 * node; its checkpoint did not move).
 */
import { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import { CheckpointedSubscription } from '../eventsourcing/checkpointed-subscription';
import type { ReadStore } from '../read-store/read-store.port';
import { waitAtMost } from '../wait-at-most';
import type { MessageBus, OutgoingMessage } from './message-bus.port';

export interface EventRelay {
  /** stable; also the checkpoint's name */
  readonly name: string;
  /**
   * Where a relay without a checkpoint begins: `beginning` relays the whole
   * log; `head` only what is recorded from its first start on.
   */
  readonly startAt: 'beginning' | 'head';
  /** The messages a page of recorded events calls for, by topic, in log order (none: an empty map). */
  route(events: readonly RecordedEvent[]): ReadonlyMap<string, readonly OutgoingMessage[]>;
}

const RETRY_DELAY_MS = 1000;
const STOP_TIMEOUT_MS = 5000;

export class EventRelays {
  private readonly logger = new Logger('Relays');
  private readonly relays = new Map<string, EventRelay>();
  private readonly running = new Map<string, CheckpointedSubscription>();

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly bus: MessageBus,
    private readonly retryDelayMs = RETRY_DELAY_MS,
  ) {}

  /** Adds relays; before start(). */
  register(...relays: EventRelay[]): void {
    for (const relay of relays) {
      if (this.relays.has(relay.name)) throw new Error(`Relay ${relay.name} registered twice`);
      this.relays.set(relay.name, relay);
    }
  }

  names(): string[] {
    return [...this.relays.keys()];
  }

  /** Each running relay's position (its checkpoint), for status and tests. */
  positions(): Map<string, number> {
    return new Map([...this.running].map(([name, subscription]) => [name, subscription.currentPosition()]));
  }

  async start(): Promise<void> {
    if (this.running.size > 0) return;
    for (const relay of this.relays.values()) {
      if (relay.startAt === 'head' && (await this.readStore.getCheckpoint(relay.name)) === null) {
        await this.readStore.setCheckpoint(relay.name, await this.eventStore.headPosition());
      }
      const subscription = new CheckpointedSubscription(this.eventStore, this.readStore, relay.name, (events) => this.publish(relay, events), this.retryDelayMs);
      this.running.set(relay.name, subscription);
      await subscription.start();
    }
  }

  async stop(): Promise<void> {
    const running = [...this.running.values()];
    this.running.clear();
    const stopped = await waitAtMost(Promise.all(running.map((subscription) => subscription.stop())), STOP_TIMEOUT_MS);
    if (!stopped) this.logger.warn(`relays did not stop within ${STOP_TIMEOUT_MS} ms (a publish is blocked); their checkpoints did not move`);
  }

  private async publish(relay: EventRelay, events: RecordedEvent[]): Promise<void> {
    for (const [topic, messages] of relay.route(events)) {
      if (messages.length > 0) await this.bus.publish(topic, [...messages]);
    }
  }
}
