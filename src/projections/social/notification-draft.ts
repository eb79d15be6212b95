/** The shapes of notifications (social-routes §0.5, §11), shared by the rules of every social context. */
import type { DomainEventType } from '../../aggregates/events';
import type { RecordedOf } from '../support/define-projection';

/** A notification before it is stored: who is told what, about whom. */
export interface NotificationDraft {
  user_id: string;
  /** follow | comment | reply | upvote | task_assigned | proximity_match | referral_signup | referral_activated */
  type: string;
  source_user_id: string | null;
  /** the source user's name as the message names it (rewritten if that user is anonymised) */
  source_username: string | null;
  target_type: string | null;
  target_id: string | null;
  message: string;
}

/** The Notification record (§0.5). */
export interface NotificationView {
  id: string;
  user_id: string;
  type: string;
  source_user_id: string | null;
  target_type: string | null;
  target_id: string | null;
  message: string;
  is_read: boolean;
  created_at: string;
}

export type NotificationRule<T extends DomainEventType> = (event: RecordedOf<T>) => NotificationDraft[];
export type NotificationRules = { [T in DomainEventType]?: NotificationRule<T> };

