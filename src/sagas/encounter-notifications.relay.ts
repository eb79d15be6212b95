/**
 * Publishes what each user is told about an encounter event (SPEC §6) to the
 * message bus, from a checkpointed event-store subscription (`encounterNotifier`):
 * the store is the outbox, so a request never touches the bus and a bus
 * outage never fails one (DESIGN.md §2). The checkpoint moves only after the
 * bus accepted the batch: an outage delays messages, it loses none.
 *
 * One bus message per user message, on the base topic (e.g.
 * `com.svc.encounter.match`), keyed by the user id (one user's messages keep
 * their order per topic), value { id: position, topic: `<topic>.<user_id>`,
 * payload, at }. Consumers (EncounterStreamService on every HTTP process)
 * deliver a message only to the user its per-user topic names.
 *
 * Runs where the background work runs (PROJECTIONS=inline or the worker).
 * A first start (no checkpoint) begins at the store's head: telling users
 * today about last year's matches helps nobody, and the inbox read model
 * still holds every message for a client that resumes.
 */
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { encounterMessagesFor, userTopic } from '../aggregates/encounter/encounter-messages';
import type { EncounterEvent } from '../aggregates/encounter/encounter.events';
import { MESSAGE_BUS, type MessageBus, type OutgoingMessage } from '../infrastructure/bus/message-bus.port';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { CheckpointedSubscription } from '../infrastructure/eventsourcing/checkpointed-subscription';
import { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { READ_STORE, type ReadStore } from '../infrastructure/read-store/read-store.port';
import { waitAtMost } from '../infrastructure/wait-at-most';
import { MESSAGE_EVENT_TYPES } from '../projections/encounter/encounter-inbox.projection';
import type { EncounterBusValue } from '../modules/encounter/stream/sse';

export const ENCOUNTER_NOTIFIER_CHECKPOINT = 'encounterNotifier';
const RETRY_DELAY_MS = 1000;
/** a publish blocked by a bus outage must not hold the shutdown; the checkpoint did not move */
const STOP_TIMEOUT_MS = 5000;
const MESSAGE_TYPES: ReadonlySet<string> = new Set(MESSAGE_EVENT_TYPES);

/** The bus messages of a batch of recorded events, by base topic, in log order. */
export function notificationsOf(events: readonly RecordedEvent[]): Map<string, OutgoingMessage[]> {
  const byTopic = new Map<string, OutgoingMessage[]>();
  for (const event of events) {
    if (!MESSAGE_TYPES.has(event.type)) continue;
    for (const m of encounterMessagesFor(event as unknown as EncounterEvent)) {
      const perUser = userTopic(m.topic, m.userId);
      const value: EncounterBusValue = { id: String(event.position), topic: perUser, payload: m.payload, at: event.metadata.occurredAt };
      const message: OutgoingMessage = {
        key: m.userId,
        value,
        headers: { 'user-topic': perUser, 'event-type': event.type, 'event-id': event.metadata.eventId },
      };
      byTopic.set(m.topic, [...(byTopic.get(m.topic) ?? []), message]);
    }
  }
  return byTopic;
}

@Injectable()
export class EncounterNotificationRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription: CheckpointedSubscription | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly lifecycle: PlatformLifecycle,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.lifecycle.runsBackgroundWork()) return;
    if ((await this.readStore.getCheckpoint(ENCOUNTER_NOTIFIER_CHECKPOINT)) === null) {
      await this.readStore.setCheckpoint(ENCOUNTER_NOTIFIER_CHECKPOINT, await this.eventStore.headPosition());
    }
    this.subscription = new CheckpointedSubscription(
      this.eventStore,
      this.readStore,
      ENCOUNTER_NOTIFIER_CHECKPOINT,
      (events) => this.publish(events),
      RETRY_DELAY_MS,
    );
    await this.subscription.start();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.subscription) await waitAtMost(this.subscription.stop(), STOP_TIMEOUT_MS);
  }

  private async publish(events: RecordedEvent[]): Promise<void> {
    for (const [topic, messages] of notificationsOf(events)) await this.bus.publish(topic, messages);
  }
}
