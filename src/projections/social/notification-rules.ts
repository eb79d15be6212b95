/**
 * Which events notify whom (social-routes §11): a rule per event type turns
 * the recorded event into notification drafts, purely from the event. The
 * `notifications` read model stores them and the social notifications relay
 * pushes the same ones to the bus, so both agree on every field without
 * reading anything. Each social context adds its rules in its own file
 * (`notifications.<context>.handlers.ts`, spread into NOTIFICATION_RULES);
 * the maps never overlap.
 */
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { NotificationDraft, NotificationRules, NotificationView } from './notification-draft';
import { ACCOUNT_NOTIFICATION_RULES } from './notifications.accounts.handlers';
import { AGENT_NOTIFICATION_RULES } from './notifications.agents.handlers';
import { CONTENT_NOTIFICATION_RULES } from './notifications.content.handlers';
import { PROXIMITY_NOTIFICATION_RULES } from './notifications.proximity.handlers';
import { REFERRAL_NOTIFICATION_RULES } from './notifications.referrals.handlers';

export type { NotificationDraft, NotificationRules, NotificationView };

/** A notification as stored: the view and the source's name as the message spells it. */
export type StoredNotification = NotificationView & { source_username: string | null };

export const NOTIFICATION_RULES: NotificationRules = {
  ...ACCOUNT_NOTIFICATION_RULES,
  ...AGENT_NOTIFICATION_RULES,
  ...CONTENT_NOTIFICATION_RULES,
  ...PROXIMITY_NOTIFICATION_RULES,
  ...REFERRAL_NOTIFICATION_RULES,
};

/** The notifications an event creates, with their ids (stable per event) and times; nobody is told about their own act. */
export function notificationsOf(event: RecordedEvent): StoredNotification[] {
  const rule = (NOTIFICATION_RULES as Record<string, ((e: RecordedEvent) => NotificationDraft[]) | undefined>)[event.type];
  if (!rule) return [];
  return rule(event)
    .filter((draft) => draft.user_id && draft.user_id !== draft.source_user_id)
    .map((draft, index) => ({
      id: `${event.metadata.eventId}-${index}`,
      user_id: draft.user_id,
      type: draft.type,
      source_user_id: draft.source_user_id,
      source_username: draft.source_username,
      target_type: draft.target_type,
      target_id: draft.target_id,
      message: draft.message,
      is_read: false,
      created_at: event.metadata.occurredAt,
    }));
}
