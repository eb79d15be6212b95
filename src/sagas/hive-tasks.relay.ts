/**
 * Sends this node's hive tasks to the bus from the event store (the store is
 * the outbox): a checkpointed subscription (`hiveTaskRelay`) turns each
 * recorded SubtaskDispatched (goal dispatch) and ExpertRunRequested
 * (speculative dispatch) of this node into a task on `svc.hive.tasks`. The
 * checkpoint moves only after the bus accepted the batch: a bus outage delays
 * tasks, never a request, and nothing is lost; a restart may send a task again,
 * which the origin's idempotent commands absorb.
 *
 * Keys: `<goal_id>:<subtask_id>` for a sub-task, so one goal's sub-tasks
 * spread over the partitions (and so over the workers) while the attempts of
 * one sub-task keep their order; the run id for an expert run.
 *
 * Runs where the background work runs (PROJECTIONS=inline or the worker).
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { EventRelay } from '../infrastructure/bus/event-relay';
import type { OutgoingMessage } from '../infrastructure/bus/message-bus.port';
import { traceHeaders } from '../infrastructure/bus/trace-headers';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { type HiveTask, hiveNames } from '../modules/hive/hive-messages';
import { DEFAULT_HIVE_OPTIONS, HIVE_OPTIONS, type HiveOptions } from '../modules/hive/hive-options';
import { expertTaskFor, subtaskTaskFor } from './hive-tasks';

export const HIVE_TASK_RELAY_CHECKPOINT = 'hiveTaskRelay';

/** The hive tasks among recorded events, as bus messages. */
export function hiveTaskMessages(events: readonly RecordedEvent[], nodeId: string, expertTtlSec: number): OutgoingMessage[] {
  const messages: OutgoingMessage[] = [];
  for (const event of events) {
    const task: HiveTask | null = subtaskTaskFor(event, nodeId) ?? expertTaskFor(event, nodeId, expertTtlSec);
    if (!task) continue;
    const key = task.kind === 'subtask' ? `${task.goal_id}:${task.subtask_id}` : task.run_id;
    messages.push({ key, value: task, headers: { ...traceHeaders(event), 'task-kind': task.kind, 'node-id': nodeId } });
  }
  return messages;
}

@Injectable()
export class HiveTaskRelay implements EventRelay {
  readonly name = HIVE_TASK_RELAY_CHECKPOINT;
  readonly startAt = 'beginning';
  private readonly options: HiveOptions;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(HIVE_OPTIONS) options: Partial<HiveOptions> | null,
  ) {
    this.options = { ...DEFAULT_HIVE_OPTIONS, ...(options ?? {}) };
  }

  route(events: readonly RecordedEvent[]): Map<string, OutgoingMessage[]> {
    const topic = hiveNames(this.config.kafka?.topicPrefix).tasks;
    return new Map([[topic, hiveTaskMessages(events, this.config.nodeId, this.options.expertTtlSec)]]);
  }
}
