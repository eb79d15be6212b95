/**
 * What a user has read of their notifications (social-routes §11): stream
 * `notificationInbox-<userId>`. The notifications themselves are a read model
 * derived from other events; marking them read is the user's own act, so it
 * is recorded here. Only the caller's notifications are ever named (the
 * stream is the caller's).
 */
import { assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export type NotificationInboxEvent =
  | { type: 'NotificationsMarkedRead'; data: { user_id: string; notification_ids: string[]; at: string } }
  /** every notification created up to `at` is read */
  | { type: 'AllNotificationsMarkedRead'; data: { user_id: string; at: string } };

/** Nothing to remember: marking is always allowed and idempotent. */
export type NotificationInboxState = { status: 'open' };

export type NotificationInboxCommand = { kind: 'markRead'; userId: string; ids: string[] } | { kind: 'markAllRead'; userId: string };

export function notificationInboxStreamId(userId: string): string {
  return `notificationInbox-${userId}`;
}

export const notificationInboxDecider: Decider<NotificationInboxState, NotificationInboxCommand, NotificationInboxEvent> = {
  initialState: { status: 'open' },
  evolve: (state) => state,
  decide(command, _state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'markRead':
        if (command.ids.length === 0) return [];
        return [{ type: 'NotificationsMarkedRead', data: { user_id: command.userId, notification_ids: [...new Set(command.ids)], at } }];
      case 'markAllRead':
        return [{ type: 'AllNotificationsMarkedRead', data: { user_id: command.userId, at } }];
      default:
        return assertNever(command);
    }
  },
};
