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
import { Injectable } from '@nestjs/common';
import { encounterMessagesFor, userTopic } from '../aggregates/encounter/encounter-messages';
import type { EncounterEvent } from '../aggregates/encounter/encounter.events';
import type { EventRelay } from '../infrastructure/bus/event-relay';
import type { OutgoingMessage } from '../infrastructure/bus/message-bus.port';
import { traceHeaders } from '../infrastructure/bus/trace-headers';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { MESSAGE_EVENT_TYPES } from '../projections/encounter/encounter-inbox.projection';
import type { EncounterBusValue } from '../modules/encounter/stream/sse';

export const ENCOUNTER_NOTIFIER_CHECKPOINT = 'encounterNotifier';
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
        headers: { ...traceHeaders(event), 'user-topic': perUser, 'event-type': event.type, 'event-id': event.metadata.eventId },
      };
      byTopic.set(m.topic, [...(byTopic.get(m.topic) ?? []), message]);
    }
  }
  return byTopic;
}

@Injectable()
export class EncounterNotificationRelay implements EventRelay {
  readonly name = ENCOUNTER_NOTIFIER_CHECKPOINT;
  readonly startAt = 'head';

  route(events: readonly RecordedEvent[]): Map<string, OutgoingMessage[]> {
    return notificationsOf(events);
  }
}
