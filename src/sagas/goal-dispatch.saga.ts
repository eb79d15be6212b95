/**
 * Goal dispatch: the process manager that moves a goal's sub-tasks over the
 * hive (issue 7, item 6). Each step is driven by a recorded event and lands
 * as a command on the goal's own stream, so a redelivered event does nothing
 * twice (the aggregate finds nothing left to do):
 *
 *   GoalAccepted, SubtaskFailed(will_retry)  →  DispatchSubtasks   (this saga)
 *   SubtaskDispatched  →  hive task on `svc.hive.tasks`            (HiveTaskRelay, hive-tasks.ts)
 *   result on `svc.hive.results`  →  CompleteSubtask / FailSubtask (HiveResultsListener, hive-tasks.ts)
 *   deadline passed  →  ExpireSubtasks                             (GoalTimeoutSweeper)
 *
 * Under system pressure each dispatch first waits the pause of the throttle
 * factor (PressureGauge), so a loaded node hands out sub-tasks more slowly.
 *
 * Only this node's goals: a node dispatches, relays and expires the goals it
 * accepted (the event's metadata.nodeId), and acts on results addressed to it.
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import { goalIdOf } from '../aggregates/goals/goal';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { PressureGauge } from '../modules/engine/pressure-gauge';
import { DispatchSubtasks } from '../modules/goals/goals.commands';
import { reactions } from './support/reactions';

@Injectable()
export class GoalDispatchSaga implements ProcessManager {
  readonly name = 'goal-dispatch';
  private readonly reactions = reactions({
    GoalAccepted: (event) => this.dispatch(event),
    SubtaskFailed: (event) => (event.data.will_retry === true ? this.dispatch(event) : null),
  });
  readonly eventTypes = this.reactions.eventTypes;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    /** system pressure: a dispatch waits the pause the throttle factor calls for (engine-pressure) */
    @Optional() private readonly gauge: PressureGauge | null = null,
  ) {}

  async react(event: RecordedEvent): Promise<ICommand[]> {
    const commands = this.reactions.react(event);
    if (commands.length > 0) await this.gauge?.pace();
    return commands;
  }

  /** DispatchSubtasks on the goal of an event of this node, caused by the event. */
  private dispatch(e: Pick<RecordedEvent, 'streamId' | 'metadata'>): DispatchSubtasks | null {
    if (e.metadata.nodeId !== this.config.nodeId) return null;
    const goalId = goalIdOf(e.streamId);
    if (!goalId) return null;
    return new DispatchSubtasks({ goalId }, { actor: 'system:goal-dispatch', correlationId: e.metadata.correlationId, causationId: e.metadata.eventId });
  }
}
