/**
 * Pushes each new notification (social-routes §11) to the message bus, from
 * a checkpointed event-store subscription (`socialNotifier`), as the
 * encounter notifier does: the store is the outbox, so a request never waits
 * for the bus and a bus outage delays messages without losing them.
 *
 * One bus message per notification, on the base topic `com.svc.social`,
 * keyed by the user id, value { id: position, topic:
 * `com.svc.social.<user_id>`, payload: {...notification, type: "notification",
 * notification_type}: spreading the notification after `type`, as the original
 * wrote it, would let the notification's own `type` overwrite the tag},
 * at }. The notification is made by the same rules as the `notifications`
 * read model (notification-rules.ts), so its id and fields are the ones GET
 * /notifications shows. The encounter stream forwards the topic to the user's
 * SSE connections. A first start begins at the store's head.
 */
import { Injectable } from '@nestjs/common';
import { SOCIAL_TOPIC, socialUserTopic } from '../aggregates/social/social-topics';
import type { EventRelay } from '../infrastructure/bus/event-relay';
import type { OutgoingMessage } from '../infrastructure/bus/message-bus.port';
import { traceHeaders } from '../infrastructure/bus/trace-headers';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { notificationsOf } from '../projections/social/notification-rules';
import type { EncounterBusValue } from '../modules/encounter/stream/sse';

export const SOCIAL_NOTIFIER_CHECKPOINT = 'socialNotifier';

/** The bus messages of a batch of recorded events, in log order. */
export function socialMessagesOf(events: readonly RecordedEvent[]): OutgoingMessage[] {
  const messages: OutgoingMessage[] = [];
  for (const event of events) {
    for (const { source_username: _name, ...notification } of notificationsOf(event)) {
      const perUser = socialUserTopic(notification.user_id);
      const value: EncounterBusValue = {
        id: String(event.position),
        topic: perUser,
        // the message's `type` says what it is; the notification's own type (follow, comment, ...) rides as notification_type
        payload: { ...notification, type: 'notification', notification_type: notification.type },
        at: event.metadata.occurredAt,
      };
      messages.push({
        key: notification.user_id,
        value,
        headers: { ...traceHeaders(event), 'user-topic': perUser, 'event-type': event.type, 'event-id': event.metadata.eventId },
      });
    }
  }
  return messages;
}

@Injectable()
export class SocialNotificationRelay implements EventRelay {
  readonly name = SOCIAL_NOTIFIER_CHECKPOINT;
  readonly startAt = 'head';

  route(events: readonly RecordedEvent[]): Map<string, OutgoingMessage[]> {
    const messages = socialMessagesOf(events);
    return messages.length > 0 ? new Map([[SOCIAL_TOPIC, messages]]) : new Map();
  }
}
