/**
 * Goal dispatch: the process manager that moves a goal's sub-tasks over the
 * hive (issue 7, item 6). Each step is driven by a recorded event and lands
 * as a command on the goal's own stream, so a redelivered event does nothing
 * twice (the aggregate finds nothing left to do):
 *
 *   GoalAccepted, SubtaskFailed(will_retry)  →  DispatchSubtasks   (this saga)
 *   SubtaskDispatched  →  hive task on `svc.hive.tasks`            (HiveTaskRelay, `subtaskTaskFor`)
 *   result on `svc.hive.results`  →  CompleteSubtask / FailSubtask (HiveResultsListener, `goalCommandFor`)
 *   deadline passed  →  ExpireSubtasks                             (GoalTimeouts)
 *
 * Only this node's goals: a node dispatches, relays and expires the goals it
 * accepted (the event's metadata.nodeId), and acts on results addressed to it.
 */
import { Inject, Injectable } from '@nestjs/common';
import { type ICommand, type IEvent, Saga } from '@nestjs/cqrs';
import { filter, map, type Observable } from 'rxjs';
import { goalIdOf, type SubtaskDispatched, type SubtaskFailed } from '../aggregates/goals/goal';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { ofRecordedType } from '../infrastructure/sagas/recorded-event';
import type { CommandContext } from '../modules/common/command-executor';
import { CompleteSubtask, DispatchSubtasks, FailSubtask } from '../modules/goals/goals.commands';
import type { HiveResult, SubtaskTask } from '../modules/hive/hive-messages';

function causedBy(e: RecordedEvent, actor: string): CommandContext {
  return { actor, correlationId: e.metadata.correlationId, causationId: e.metadata.eventId };
}

/** The dispatch a recorded event calls for, or null. */
export function dispatchFor(e: RecordedEvent, nodeId: string): DispatchSubtasks | null {
  if (e.metadata.nodeId !== nodeId) return null;
  const goalId = goalIdOf(e.streamId);
  if (!goalId) return null;
  if (e.type === 'GoalAccepted') return new DispatchSubtasks({ goalId }, causedBy(e, 'system:goal-dispatch'));
  if (e.type === 'SubtaskFailed' && (e.data as SubtaskFailed['data']).will_retry === true) {
    return new DispatchSubtasks({ goalId }, causedBy(e, 'system:goal-dispatch'));
  }
  return null;
}

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

@Injectable()
export class GoalDispatchSaga {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Saga()
  dispatch = (events$: Observable<IEvent>): Observable<ICommand> =>
    events$.pipe(
      ofRecordedType('GoalAccepted', 'SubtaskFailed'),
      map((event) => dispatchFor(event.recorded, this.config.nodeId)),
      filter((command): command is DispatchSubtasks => command !== null),
    );
}
