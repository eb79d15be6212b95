/**
 * The origin's clock for its goals: every `timeoutSweepMs` it reads this
 * node's goals in flight from the read model and, per goal,
 * - ExpireSubtasks when a dispatched sub-task's deadline passed (the
 *   aggregate decides, from its own state, which attempts are overdue: the
 *   read model only picks the candidates, it may lag);
 * - DispatchSubtasks when a sub-task waits for dispatch: a safety net behind
 *   the dispatch saga (which retries its commands until they succeed); when
 *   the saga already did it the aggregate finds nothing to do.
 * Background only (an unref'd timer), where the background work runs; one
 * sweep at a time.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, Optional } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { Clock } from '../infrastructure/clock';
import { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import type { GoalDoc } from '../projections/goals/goals.projection';
import { DEFAULT_HIVE_OPTIONS, HIVE_OPTIONS, type HiveOptions } from '../modules/hive/hive-options';
import { DispatchSubtasks, ExpireSubtasks } from '../modules/goals/goals.commands';
import { GoalsQueries } from '../modules/goals/goals.queries';

const SWEEP_LIMIT = 500;

/** What a goal in flight needs from the sweep at `now`. */
export function sweepActions(goal: GoalDoc, now: Date): { expire: boolean; dispatch: boolean } {
  const subtasks = goal.subtask_ids.map((id) => goal.subtasks[id]).filter(Boolean);
  return {
    expire: subtasks.some((s) => s.status === 'dispatched' && s.deadline !== null && Date.parse(s.deadline) <= now.getTime()),
    dispatch: subtasks.some((s) => s.status === 'pending'),
  };
}

@Injectable()
export class GoalTimeoutSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('GoalTimeouts');
  private readonly options: HiveOptions;
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: GoalsQueries,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
    private readonly lifecycle: PlatformLifecycle,
    @Optional() @Inject(HIVE_OPTIONS) options: Partial<HiveOptions> | null,
  ) {
    this.options = { ...DEFAULT_HIVE_OPTIONS, ...(options ?? {}) };
  }

  onApplicationBootstrap(): void {
    if (!this.lifecycle.writesInBackground()) return;
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .catch((error: unknown) => this.logger.warn(`sweep failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (this.sweeping = null));
    }, this.options.timeoutSweepMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }

  /** One pass over this node's goals in flight. */
  async sweep(): Promise<void> {
    const now = this.clock.now();
    const goals = await this.queries.inFlight(this.config.nodeId, SWEEP_LIMIT);
    for (const goal of goals) {
      const { expire, dispatch } = sweepActions(goal, now);
      const context = { actor: 'system:goal-timeouts', correlationId: `goal-sweep:${goal.goal_id}`, causationId: null };
      if (expire) await this.commands.execute(new ExpireSubtasks({ goalId: goal.goal_id }, context));
      if (dispatch) await this.commands.execute(new DispatchSubtasks({ goalId: goal.goal_id }, context));
    }
  }
}
