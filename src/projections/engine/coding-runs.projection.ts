/**
 * `codingRuns`: one document per sandboxed coding run in `coding_runs`, `_id`
 * the run id: who ran which tool on which kind of task, the outcome and the
 * time it took, for /coding/benchmarks (which aggregates the latest runs).
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const CODING_RUNS = 'coding_runs';

export interface CodingRunDoc extends Doc {
  run_id: string;
  user_id: string;
  tool: string;
  task_type: string;
  model: string | null;
  code_source: 'model' | 'client';
  status: 'passed' | 'failed' | 'timed_out';
  duration_ms: number;
  ran_at: string;
}

export const codingRunsProjection = defineProjection({
  name: 'codingRuns',
  version: 1,
  collections: [CODING_RUNS],
  indexes: [{ collection: CODING_RUNS, spec: { keys: { ran_at: -1 } } }],
  on: {
    CodingTaskRan: (event, writer) => {
      const d = event.data;
      applyOnce(writer, CODING_RUNS, d.run_id, event, {
        $set: {
          run_id: d.run_id,
          user_id: d.user_id,
          tool: d.tool,
          task_type: d.task_type,
          model: d.model,
          code_source: d.code_source,
          status: d.status,
          duration_ms: d.duration_ms,
          ran_at: d.ran_at,
        },
      });
    },
  },
});
