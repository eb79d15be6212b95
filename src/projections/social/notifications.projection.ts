/**
 * `notifications` (social-routes §11): one document per notification, made by
 * the rules of notification-rules.ts from the events of every social context;
 * marked read by the owner's inbox events. When a user is anonymised, the
 * notifications that named them are rewritten to "Deleted User", and their
 * own notifications are deleted: their personal data leaves this read model.
 */
import type { DomainEventType } from '../../aggregates/events';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type ProjectionHandlers } from '../support/define-projection';
import { NOTIFICATION_RULES, notificationsOf, type StoredNotification } from './notification-rules';

export const NOTIFICATIONS = 'notifications';
export const DELETED_USER_NAME = 'Deleted User';

export type NotificationDoc = Doc & Omit<StoredNotification, 'id'> & { id: string };

function created(event: RecordedEvent, writer: ProjectionWriter): void {
  for (const notification of notificationsOf(event)) {
    applyOnce(writer, NOTIFICATIONS, notification.id, event, { $set: { ...notification } });
  }
}

const creating = Object.fromEntries(Object.keys(NOTIFICATION_RULES).map((type) => [type, created])) as ProjectionHandlers;

export const notificationsProjection = defineProjection({
  name: 'notifications',
  // 2: the content and agents contexts' rules (comment, reply, upvote, task_assigned)
  version: 2,
  collections: [NOTIFICATIONS],
  indexes: [
    { collection: NOTIFICATIONS, spec: { keys: { user_id: 1, created_at: -1 } } },
    { collection: NOTIFICATIONS, spec: { keys: { source_user_id: 1 } } },
  ],
  on: {
    ...creating,
    NotificationsMarkedRead: (event, writer) =>
      writer.write(NOTIFICATIONS, {
        updateMany: { filter: { _id: { $in: event.data.notification_ids }, user_id: event.data.user_id }, update: { $set: { is_read: true } } },
      }),
    AllNotificationsMarkedRead: (event, writer) =>
      writer.write(NOTIFICATIONS, {
        updateMany: { filter: { user_id: event.data.user_id, created_at: { $lte: event.data.at } }, update: { $set: { is_read: true } } },
      }),
    UserAnonymized: async (event, writer) => {
      const userId = event.data.user_id;
      writer.write(NOTIFICATIONS, { deleteMany: { filter: { user_id: userId } } });
      const naming = await writer.reads.collection<NotificationDoc>(NOTIFICATIONS).find({ source_user_id: userId });
      for (const doc of naming) {
        const message = doc.source_username ? doc.message.split(doc.source_username).join(DELETED_USER_NAME) : doc.message;
        writer.write(NOTIFICATIONS, { updateOne: { filter: { _id: doc._id }, update: { $set: { message, source_username: DELETED_USER_NAME } } } });
      }
    },
  } satisfies ProjectionHandlers as ProjectionHandlers,
});

/** The event types that create notifications (the relay pushes those). */
export const NOTIFYING_EVENT_TYPES: readonly DomainEventType[] = Object.keys(NOTIFICATION_RULES) as DomainEventType[];
