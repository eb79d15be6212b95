/**
 * The social platform's real-time topic (social-routes §11): each new
 * notification goes to the per-user topic `com.svc.social.<user_id>` as
 * `{type: "notification", ...notification}`, delivered only to that user.
 */
export const SOCIAL_TOPIC = 'com.svc.social';

export function socialUserTopic(userId: string): string {
  return `${SOCIAL_TOPIC}.${userId}`;
}
