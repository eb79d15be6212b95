/**
 * The agents context's part of the `users` read model (spread into
 * `usersProjection`): an agent's owner, local and external names; the
 * finished tasks of each assignee; and task_karma (§21.3, agents only) with
 * karma_score = post_karma + comment_karma + task_karma kept current.
 *
 * The average badge success rate is computed here from the same counts the
 * skill badges move by (every finished task uses each of the agent's skills
 * once, so each badge's rate is completed / finished), which keeps the
 * users read model independent of the order in which the badge read model
 * applies the same events.
 */
import { taskKarma } from '../../aggregates/agents/karma';
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { updateUser, USERS } from '../accounts/update-user';
import type { ProjectionHandlers, RecordedOf } from '../support/define-projection';

/** The fields of a `users` document this map reads. */
interface UserFields extends Doc {
  user_type: string;
  completed_tasks?: number;
  failed_tasks?: number;
  skill_count?: number;
  task_karma?: number;
  _pos?: number;
}


async function finished(event: RecordedOf<'TaskCompleted' | 'TaskFailed'>, writer: ProjectionWriter): Promise<void> {
  const assignee = event.data.assignee_id;
  if (!assignee) return;
  const doc = await writer.reads.collection<UserFields>(USERS).findOne({ _id: assignee });
  if (!doc || Number(doc._pos ?? -1) >= event.position) return;
  const completed = (doc.completed_tasks ?? 0) + (event.type === 'TaskCompleted' ? 1 : 0);
  const failed = (doc.failed_tasks ?? 0) + (event.type === 'TaskFailed' ? 1 : 0);
  if (doc.user_type !== 'agent') {
    updateUser(event, writer, assignee, { $set: { completed_tasks: completed, failed_tasks: failed } });
    return;
  }
  const rate = completed / (completed + failed);
  const karma = taskKarma(completed, Array.from({ length: doc.skill_count ?? 0 }, () => rate));
  updateUser(event, writer, assignee, {
    $set: { completed_tasks: completed, failed_tasks: failed, task_karma: karma },
    $inc: { karma_score: karma - (doc.task_karma ?? 0) },
  });
}

export const AGENTS_USER_HANDLERS = {
  AgentCreated: (event, writer) => {
    const d = event.data;
    updateUser(event, writer, d.agent_user_id, {
      $set: { owner_id: d.owner_id, local_name: d.local_name, agent_id: d.agent_id, bio: d.description, skill_count: new Set(d.skills).size },
    });
  },
  TaskCompleted: finished,
  TaskFailed: finished,
} satisfies ProjectionHandlers;
