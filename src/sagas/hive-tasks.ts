/**
 * What this node's work becomes on the hive, and what the hive's answers
 * become here: the translations the task relay and the results listener
 * apply, for the two kinds of hive task (src/modules/hive/hive-messages.ts).
 *
 * Goal sub-tasks (goal-dispatch.saga.ts drives the goal):
 *
 *   SubtaskDispatched  →  `subtask` task on `svc.hive.tasks`          (HiveTaskRelay, `subtaskTaskFor`)
 *   result on `svc.hive.results`  →  CompleteSubtask / FailSubtask    (HiveResultsListener, `goalCommandFor`)
 *
 * Speculative dispatch (issue 7, item 6): the chat pipeline answered at once
 * with the fast model and recorded `ExpertRunRequested` in the conversation;
 * the expert run goes over the hive and its answer comes back into the
 * conversation:
 *
 *   ExpertRunRequested  →  `expert` task on `svc.hive.tasks`          (HiveTaskRelay, `expertTaskFor`)
 *   result on `svc.hive.results`  →  RecordExpertAnswer              (HiveResultsListener, `expertAnswerFor`)
 *
 * Tasks leave from a checkpointed event-store subscription (the store is the
 * outbox), never from inside a request. Only this node's work: a node sends
 * the tasks of the events it recorded (metadata.nodeId) and acts on the
 * results addressed to it (origin_node). Idempotent: a sub-task's task id is
 * `<goal>:<subtask>:<attempt>` and the goal ignores a second answer; an
 * expert task's id is the run id and RecordExpertAnswer records one answer
 * per run id. An expert run nobody takes within `expertTtlSec` is dropped by
 * the workers: the fast reply stands.
 */
import type { ExpertRunRequested } from '../aggregates/chat/chat.events';
import type { SubtaskDispatched } from '../aggregates/goals/goal';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { RecordExpertAnswer } from '../modules/chat/chat.commands';
import type { CommandContext } from '../modules/common/command-executor';
import { CompleteSubtask, FailSubtask } from '../modules/goals/goals.commands';
import type { ExpertTask, HiveResult, SubtaskTask } from '../modules/hive/hive-messages';

/** The hive task of a recorded SubtaskDispatched of this node, or null. */
export function subtaskTaskFor(e: RecordedEvent, nodeId: string): SubtaskTask | null {
  if (e.type !== 'SubtaskDispatched' || e.metadata.nodeId !== nodeId) return null;
  const d = e.data as SubtaskDispatched['data'];
  return {
    task_id: `${d.goal_id}:${d.subtask_id}:${d.attempt}`,
    kind: 'subtask',
    goal_id: d.goal_id,
    subtask_id: d.subtask_id,
    attempt: d.attempt,
    description: d.description,
    origin_node: nodeId,
    deadline: d.deadline,
    correlation_id: e.metadata.correlationId,
  };
}

/** The expert task of a recorded ExpertRunRequested of this node, or null. */
export function expertTaskFor(e: RecordedEvent, nodeId: string, ttlSec: number): ExpertTask | null {
  if (e.type !== 'ExpertRunRequested' || e.metadata.nodeId !== nodeId) return null;
  const d = e.data as ExpertRunRequested['data'];
  const requestedAt = Date.parse(d.requested_at);
  const from = Number.isNaN(requestedAt) ? Date.parse(e.metadata.occurredAt) : requestedAt;
  return {
    task_id: d.run_id,
    kind: 'expert',
    run_id: d.run_id,
    user_id: d.user_id,
    prompt_id: d.prompt_id,
    prompt: d.prompt,
    model: d.model ?? null,
    attempt: 1,
    origin_node: nodeId,
    deadline: new Date(from + ttlSec * 1000).toISOString(),
    correlation_id: e.metadata.correlationId,
  };
}

/** The goal command for a sub-task result addressed to this node, or null. */
export function goalCommandFor(result: HiveResult, nodeId: string): CompleteSubtask | FailSubtask | null {
  if (result.kind !== 'subtask' || result.origin_node !== nodeId || !result.goal_id || !result.subtask_id) return null;
  const context: CommandContext = { actor: `node:${result.node_id}`, correlationId: result.correlation_id, causationId: null };
  if (result.status === 'completed') {
    const { goal_id: goalId, subtask_id: subtaskId, attempt, node_id: nodeId, source, model } = result;
    return new CompleteSubtask({ goalId, subtaskId, attempt, result: result.result, nodeId, source, model }, context);
  }
  return new FailSubtask({ goalId: result.goal_id, subtaskId: result.subtask_id, attempt: result.attempt, error: result.result }, context);
}

/**
 * The conversation command for an expert result addressed to this node, or
 * null (another node's run, or a failed run: the fast reply stands).
 */
export function expertAnswerFor(result: HiveResult, nodeId: string): RecordExpertAnswer | null {
  if (result.kind !== 'expert' || result.origin_node !== nodeId || result.status !== 'completed') return null;
  if (!result.run_id || !result.user_id || !result.prompt_id) return null;
  return new RecordExpertAnswer(
    { userId: result.user_id, promptId: result.prompt_id, runId: result.run_id, response: result.result, model: result.model, source: result.source },
    { actor: `node:${result.node_id}`, correlationId: result.correlation_id, causationId: null },
  );
}
