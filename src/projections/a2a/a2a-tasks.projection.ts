/**
 * `a2aTasks`: one document per A2A task in `a2a_tasks`, `_id`
 * `<userId>/<taskId>` (the caller and the task id, as its stream), for
 * `message/get` / `tasks/get`. Only the caller's own id is ever looked up, so
 * a task stays visible only to the caller that created it.
 */
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const A2A_TASKS = 'a2a_tasks';

export const a2aTaskDocId = (userId: string, taskId: string): string => `${userId}/${taskId}`;

export interface A2aTaskDoc extends Doc {
  task_id: string;
  context_id: string;
  user_id: string;
  agent_id: string;
  state: 'submitted' | 'working' | 'completed' | 'failed' | 'canceled';
  /** the agent's answer once completed */
  content: string | null;
  /** why it failed */
  error: string | null;
  submitted_at: string;
  /** when the state last changed */
  timestamp: string;
}

const move = (writer: ProjectionWriter, event: { position: number; streamId: string }, set: Record<string, unknown>): void =>
  applyOnce(writer, A2A_TASKS, event.streamId.slice('a2aTask-'.length), event, { $set: set }, { upsert: false });

export const a2aTasksProjection = defineProjection({
  name: 'a2aTasks',
  version: 1,
  collections: [A2A_TASKS],
  indexes: [],
  on: {
    A2aTaskSubmitted: (event, writer) => {
      const d = event.data;
      applyOnce(writer, A2A_TASKS, a2aTaskDocId(d.user_id, d.task_id), event, {
        $set: {
          task_id: d.task_id,
          context_id: d.context_id,
          user_id: d.user_id,
          agent_id: d.agent_id,
          state: 'submitted',
          content: null,
          error: null,
          submitted_at: d.submitted_at,
          timestamp: d.submitted_at,
        },
      });
    },
    A2aTaskStarted: (event, writer) => move(writer, event, { state: 'working', timestamp: event.data.started_at }),
    A2aTaskCompleted: (event, writer) => move(writer, event, { state: 'completed', content: event.data.response, timestamp: event.data.completed_at }),
    A2aTaskFailed: (event, writer) => move(writer, event, { state: 'failed', error: event.data.error, timestamp: event.data.failed_at }),
    A2aTaskCanceled: (event, writer) => move(writer, event, { state: 'canceled', timestamp: event.data.canceled_at }),
  },
});
