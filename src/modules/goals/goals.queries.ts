/** Read-model lookups of the goals context (the `goals` collection of goals.projection.ts). */
import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { type GoalDoc, GOALS } from '../../projections/goals/goals.projection';

export interface GoalSubtaskView {
  subtask_id: string;
  description: string;
  /** pending (waiting for its first or next attempt), dispatched, completed, failed */
  status: string;
  attempts: number;
  result: string | null;
  node_id: string | null;
  source: 'model' | 'offline' | null;
  model: string | null;
  last_error: string | null;
}

export interface GoalView {
  goal_id: string;
  user_id: string;
  goal: string;
  status: GoalDoc['status'];
  planned_by: string;
  origin_node: string;
  timeout_sec: number;
  max_attempts: number;
  subtasks: GoalSubtaskView[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  failed_at: string | null;
  failure_reason: string | null;
}

export function toGoalView(doc: GoalDoc): GoalView {
  return {
    goal_id: doc.goal_id,
    user_id: doc.user_id,
    goal: doc.goal,
    status: doc.status,
    planned_by: doc.planned_by,
    origin_node: doc.origin_node,
    timeout_sec: doc.timeout_sec,
    max_attempts: doc.max_attempts,
    subtasks: doc.subtask_ids.map((id) => {
      const s = doc.subtasks[id];
      return {
        subtask_id: id,
        description: s.description,
        status: s.status,
        attempts: s.attempts,
        result: s.result,
        node_id: s.node_id,
        source: s.source,
        model: s.model,
        last_error: s.last_error,
      };
    }),
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    completed_at: doc.completed_at,
    failed_at: doc.failed_at,
    failure_reason: doc.failure_reason,
  };
}

@Injectable()
export class GoalsQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async view(goalId: string): Promise<GoalView | null> {
    const doc = await this.store.collection<GoalDoc>(GOALS).findOne({ _id: String(goalId) });
    return doc ? toGoalView(doc) : null;
  }

  /** This node's goals still in flight, oldest first (the timeout sweep's candidates). */
  inFlight(nodeId: string, limit: number): Promise<GoalDoc[]> {
    return this.store
      .collection<GoalDoc>(GOALS)
      .find({ origin_node: String(nodeId), status: { $in: ['accepted', 'running'] } }, { sort: { updated_at: 1 }, limit });
  }
}
