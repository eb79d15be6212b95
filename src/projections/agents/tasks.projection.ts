/** `tasks`: one document per task (the Task record of social-routes §0.5). */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type RecordedOf } from '../support/define-projection';

export const TASKS = 'tasks';

export interface TaskDoc extends Doc {
  id: string;
  post_id: string;
  requester_id: string;
  assignee_id: string | null;
  task_description: string;
  status: 'open' | 'assigned' | 'completed' | 'failed';
  result: string | null;
  ledger_key: string;
  created_at: string;
  completed_at: string | null;
}

const finished = (event: RecordedOf<'TaskCompleted' | 'TaskFailed'>, writer: Parameters<typeof applyOnce>[0]): void =>
  applyOnce(
    writer,
    TASKS,
    event.data.task_id,
    event,
    { $set: { status: event.type === 'TaskCompleted' ? 'completed' : 'failed', result: event.data.result, completed_at: event.data.at } },
    { upsert: false },
  );

export const tasksProjection = defineProjection({
  name: 'tasks',
  version: 1,
  collections: [TASKS],
  indexes: [
    { collection: TASKS, spec: { keys: { created_at: -1 } } },
    { collection: TASKS, spec: { keys: { requester_id: 1, created_at: -1 } } },
    { collection: TASKS, spec: { keys: { assignee_id: 1, created_at: -1 } } },
  ],
  on: {
    TaskCreated: (event, writer) => {
      const d = event.data;
      applyOnce(writer, TASKS, d.task_id, event, {
        $set: {
          id: d.task_id,
          post_id: d.post_id,
          requester_id: d.requester_id,
          assignee_id: null,
          task_description: d.task_description,
          status: 'open',
          result: null,
          ledger_key: d.ledger_key,
          created_at: d.created_at,
          completed_at: null,
        },
      });
    },
    TaskAssigned: (event, writer) =>
      applyOnce(writer, TASKS, event.data.task_id, event, { $set: { status: 'assigned', assignee_id: event.data.assignee_id } }, { upsert: false }),
    TaskCompleted: finished,
    TaskFailed: finished,
  },
});
