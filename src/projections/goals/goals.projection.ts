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
import type { DomainEventType } from '../../aggregates/events';
import { goalIdOf, type GoalStatus, type SubtaskStatus } from '../../aggregates/goals/goal';
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type ProjectionHandler, type RecordedOf } from '../support/define-projection';

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

/** A handler of a goal's events, given the goal id of their stream; events of other streams are ignored. */
function ofGoal<T extends DomainEventType>(handle: (goalId: string, event: RecordedOf<T>, writer: ProjectionWriter) => void): ProjectionHandler<T> {
  return (event, writer) => {
    const goalId = goalIdOf(event.streamId);
    if (goalId) handle(goalId, event, writer);
  };
}

/** `$set` paths of one sub-task's fields. */
const sub = (id: string, fields: Partial<GoalSubtaskDoc>) =>
  Object.fromEntries(Object.entries(fields).map(([field, value]) => [`subtasks.${id}.${field}`, value]));

export const goalsProjection = defineProjection({
  name: 'goals',
  version: 1,
  collections: [GOALS],
  // the timeout sweep: this node's goals in flight
  indexes: [{ collection: GOALS, spec: { keys: { origin_node: 1, status: 1 } } }],
  on: {
    GoalAccepted: ofGoal((goalId, event, writer) => {
      const d = event.data;
      const subtasks: Record<string, GoalSubtaskDoc> = {};
      for (const s of d.subtasks) {
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
          user_id: d.user_id,
          goal: d.goal,
          status: 'accepted',
          origin_node: event.metadata.nodeId,
          planned_by: d.planned_by,
          timeout_sec: d.timeout_sec,
          max_attempts: d.max_attempts,
          subtask_ids: d.subtasks.map((s) => s.subtask_id),
          subtasks,
          created_at: d.accepted_at,
          updated_at: d.accepted_at,
          completed_at: null,
          failed_at: null,
          failure_reason: null,
        },
      });
    }),
    SubtaskDispatched: ofGoal((goalId, event, writer) => {
      const d = event.data;
      applyOnce(writer, GOALS, goalId, event, {
        $set: {
          status: 'running',
          updated_at: event.metadata.occurredAt,
          ...sub(d.subtask_id, { status: 'dispatched', attempts: d.attempt, deadline: d.deadline }),
        },
      });
    }),
    SubtaskCompleted: ofGoal((goalId, event, writer) => {
      const d = event.data;
      applyOnce(writer, GOALS, goalId, event, {
        $set: {
          updated_at: event.metadata.occurredAt,
          ...sub(d.subtask_id, { status: 'completed', deadline: null, result: d.result, node_id: d.node_id, source: d.source, model: d.model }),
        },
      });
    }),
    SubtaskFailed: ofGoal((goalId, event, writer) => {
      const d = event.data;
      applyOnce(writer, GOALS, goalId, event, {
        $set: {
          updated_at: event.metadata.occurredAt,
          ...sub(d.subtask_id, {
            status: d.will_retry ? 'pending' : 'failed',
            deadline: null,
            last_error: d.reason === 'timeout' ? `attempt ${d.attempt} timed out` : `attempt ${d.attempt} failed: ${d.error ?? 'error'}`,
          }),
        },
      });
    }),
    GoalCompleted: ofGoal((goalId, event, writer) =>
      applyOnce(writer, GOALS, goalId, event, { $set: { status: 'completed', completed_at: event.data.completed_at, updated_at: event.metadata.occurredAt } }),
    ),
    GoalFailed: ofGoal((goalId, event, writer) =>
      applyOnce(writer, GOALS, goalId, event, {
        $set: { status: 'failed', failed_at: event.data.failed_at, failure_reason: event.data.reason, updated_at: event.metadata.occurredAt },
      }),
    ),
  },
});
