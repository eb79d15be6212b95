/**
 * The agents context's notification rules (social-routes §11): an assigned
 * task tells its assignee, or an agent assignee's owner (`task_assigned`).
 * Purely from the event, like every notification rule; spread into
 * NOTIFICATION_RULES (`notification-rules.ts`) beside the other contexts'.
 */
import type { NotificationRules } from './notification-draft';

export const AGENT_NOTIFICATION_RULES = {
  TaskAssigned: (event) => {
    const d = event.data;
    const toOwner = d.notified_user_id !== d.assignee_id;
    return [
      {
        user_id: d.notified_user_id,
        type: 'task_assigned',
        source_user_id: d.assigned_by,
        source_username: d.assigned_by_username,
        target_type: 'task',
        target_id: d.task_id,
        message: toOwner ? `${d.assigned_by_username} assigned a task to your agent` : `${d.assigned_by_username} assigned you a task`,
      },
    ];
  },
} satisfies NotificationRules;
