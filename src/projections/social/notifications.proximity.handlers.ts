/**
 * The proximity context's notification rules (social-routes §13): a
 * proximity match tells both users (`proximity_match`), naming neither the
 * other user nor any place: who it was is for the reveal flow to tell.
 */
import type { NotificationDraft, NotificationRules } from './notification-draft';

const told = (userId: string, matchId: string, bucket: string): NotificationDraft => ({
  user_id: userId,
  type: 'proximity_match',
  source_user_id: null,
  source_username: null,
  target_type: 'proximity_match',
  target_id: matchId,
  message: `Someone you might know is nearby (${bucket})`,
});

export const PROXIMITY_NOTIFICATION_RULES = {
  ProximityMatched: (event) => [
    told(event.data.user_a_id, event.data.match_id, event.data.distance_bucket),
    told(event.data.user_b_id, event.data.match_id, event.data.distance_bucket),
  ],
} satisfies NotificationRules;
