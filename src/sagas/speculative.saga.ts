/**
 * Speculative dispatch (issue 7, item 6): the chat pipeline answered at once
 * with the fast model and recorded `ExpertRunRequested` in the conversation;
 * this process manager sends the expert run over the hive and brings its
 * answer back into the conversation:
 *
 *   ExpertRunRequested  →  `expert` task on `svc.hive.tasks`        (HiveTaskRelay, `expertTaskFor`)
 *   result on `svc.hive.results`  →  RecordExpertAnswer            (HiveResultsListener, `expertAnswerFor`)
 *
 * The task leaves from a checkpointed event-store subscription (the store is
 * the outbox), never from inside the /chat request. Idempotent: the task id is
 * the run id, and RecordExpertAnswer records one answer per run id, so a
 * redelivered event or result adds nothing. An expert run nobody takes within
 * `expertTtlSec` is dropped by the workers: the fast reply stands.
 */
import type { ExpertRunRequested } from '../aggregates/chat/chat.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { RecordExpertAnswer } from '../modules/chat/chat.commands';
import type { ExpertTask, HiveResult } from '../modules/hive/hive-messages';

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
