/**
 * `goals`: the per-goal status view behind GET /goals/:id, and the list the
 * origin node's timeout sweep reads to find goals in flight.
 *
 * One document per goal (id = goal id). Sub-tasks live in a map keyed by
 * sub-task id (`subtasks.s1.status`), so each event updates its sub-task with
 * a plain `$set` on a path, whatever the order; `subtask_ids` keeps the goal's
 * order for the view. `origin_node` is the node that recorded GoalAccepted
 * (the node whose saga dispatches and whose timer expires the goal).
 * Every update goes through applyOnce: a replay or redelivery changes nothing.
 */
import { goalIdOf, type GoalEvent, type GoalStatus, type SubtaskStatus } from '../../aggregates/goals/goal';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';

export const GOALS = 'goals';

export interface GoalSubtaskDoc {
  subtask_id: string;
  description: string;
  status: SubtaskStatus;
  attempts: number;
  deadline: string | null;
  result: string | null;
  node_id: string | null;
  source: 'model' | 'offline' | null;
  model: string | null;
  last_error: string | null;
}

export interface GoalDoc extends Doc {
  goal_id: string;
  user_id: string;
  goal: string;
  status: Exclude<GoalStatus, 'none'>;
  origin_node: string;
  planned_by: string;
  timeout_sec: number;
  max_attempts: number;
  subtask_ids: string[];
  subtasks: Record<string, GoalSubtaskDoc>;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  failed_at: string | null;
  failure_reason: string | null;
}

function apply(event: RecordedEvent, writer: ProjectionWriter): void {
  const goalId = goalIdOf(event.streamId);
  if (!goalId) return;
  const e = event as RecordedEvent & GoalEvent;
  const at = event.metadata.occurredAt;
  const sub = (id: string, fields: Partial<GoalSubtaskDoc>) =>
    Object.fromEntries(Object.entries(fields).map(([field, value]) => [`subtasks.${id}.${field}`, value]));
  switch (e.type) {
    case 'GoalAccepted': {
      const subtasks: Record<string, GoalSubtaskDoc> = {};
      for (const s of e.data.subtasks) {
        subtasks[s.subtask_id] = {
          subtask_id: s.subtask_id,
          description: s.description,
          status: 'pending',
          attempts: 0,
          deadline: null,
          result: null,
          node_id: null,
          source: null,
          model: null,
          last_error: null,
        };
      }
      applyOnce(writer, GOALS, goalId, event, {
        $set: {
          goal_id: goalId,
          user_id: e.data.user_id,
          goal: e.data.goal,
          status: 'accepted',
          origin_node: event.metadata.nodeId,
          planned_by: e.data.planned_by,
          timeout_sec: e.data.timeout_sec,
          max_attempts: e.data.max_attempts,
          subtask_ids: e.data.subtasks.map((s) => s.subtask_id),
          subtasks,
          created_at: e.data.accepted_at,
          updated_at: e.data.accepted_at,
          completed_at: null,
          failed_at: null,
          failure_reason: null,
        },
      });
      return;
    }
    case 'SubtaskDispatched':
      applyOnce(writer, GOALS, goalId, event, {
        $set: { status: 'running', updated_at: at, ...sub(e.data.subtask_id, { status: 'dispatched', attempts: e.data.attempt, deadline: e.data.deadline }) },
      });
      return;
    case 'SubtaskCompleted':
      applyOnce(writer, GOALS, goalId, event, {
        $set: {
          updated_at: at,
          ...sub(e.data.subtask_id, { status: 'completed', deadline: null, result: e.data.result, node_id: e.data.node_id, source: e.data.source, model: e.data.model }),
        },
      });
      return;
    case 'SubtaskFailed':
      applyOnce(writer, GOALS, goalId, event, {
        $set: {
          updated_at: at,
          ...sub(e.data.subtask_id, {
            status: e.data.will_retry ? 'pending' : 'failed',
            deadline: null,
            last_error: e.data.reason === 'timeout' ? `attempt ${e.data.attempt} timed out` : `attempt ${e.data.attempt} failed: ${e.data.error ?? 'error'}`,
          }),
        },
      });
      return;
    case 'GoalCompleted':
      applyOnce(writer, GOALS, goalId, event, { $set: { status: 'completed', completed_at: e.data.completed_at, updated_at: at } });
      return;
    case 'GoalFailed':
      applyOnce(writer, GOALS, goalId, event, { $set: { status: 'failed', failed_at: e.data.failed_at, failure_reason: e.data.reason, updated_at: at } });
      return;
    default:
      return;
  }
}

export const goalsProjection: ProjectionDefinition = {
  name: 'goals',
  version: 1,
  eventTypes: ['GoalAccepted', 'SubtaskDispatched', 'SubtaskCompleted', 'SubtaskFailed', 'GoalCompleted', 'GoalFailed'],
  collections: [GOALS],
  // the timeout sweep: this node's goals in flight
  indexes: [{ collection: GOALS, spec: { keys: { origin_node: 1, status: 1 } } }],
  apply,
};
