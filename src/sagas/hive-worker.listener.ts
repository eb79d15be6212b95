/**
 * The hive worker: runs other nodes' (and this node's) hive tasks through
 * this node's LLM port, as its compute settings allow (hive-policy.ts).
 *
 * Membership is the policy: the node is a member of the shared consumer group
 * `hive-workers` on `svc.hive.tasks` only while its settings take hive work,
 * so Kafka hands each task to one node among those that accept it. The
 * settings are re-read every `policyPollMs`, and again for every task, which
 * closes the window between a settings change and the next poll: a task that
 * reaches a node that now refuses is not handled (its handler throws, so the
 * offset is not committed) and the node leaves the group at once; the task
 * stays on the bus and goes to the next member, or waits for one. Nothing is
 * re-published, so a refusal never loops; if no node takes the task, the
 * origin's deadline fails the attempt and retries, bounded by max_attempts.
 *
 * Under system pressure the worker paces itself: before each task it waits
 * the pause of the throttle factor (PressureGauge, docs/api.md "System
 * pressure"), so a loaded node takes hive work more slowly.
 *
 * A task past its deadline is skipped (the origin stopped waiting for that
 * attempt). A model error becomes a `failed` result (the origin retries,
 * maybe elsewhere). Shutdown aborts calls in flight and leaves their tasks
 * uncommitted, for another node. Redelivery may run a task twice; the origin's
 * goal (or the conversation, for expert runs) ignores the second answer.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, Optional } from '@nestjs/common';
import type { ComputeSettings } from '../aggregates/compute/compute-fields';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { type BusMessage, type BusSubscription, MESSAGE_BUS, type MessageBus } from '../infrastructure/bus/message-bus.port';
import { correlationHeader } from '../infrastructure/bus/trace-headers';
import { CORRELATION_HEADER } from '../infrastructure/observability/request-ids';
import { LLM, type LanguageModel, type LlmCompletion, type LlmRequest } from '../infrastructure/llm/llm.port';
import { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { ComputeSettingsQueries } from '../modules/compute/compute-settings.queries';
import { PressureGauge } from '../modules/engine/pressure-gauge';
import { type HiveNames, hiveNames, type HiveResult, type HiveTask, parseHiveTask } from '../modules/hive/hive-messages';
import { DEFAULT_HIVE_OPTIONS, HIVE_OPTIONS, type HiveOptions } from '../modules/hive/hive-options';
import { hiveRefusal } from '../modules/hive/hive-policy';

const MAX_RESULT_CHARS = 20_000;

export const SUBTASK_INSTRUCTIONS =
  'You are one node of a hive working on one sub-task of a larger goal. Do the sub-task and answer with its result only.';

/** Thrown to leave a task uncommitted on the bus: this node does not take hive work now. */
export class HiveWorkRefused extends Error {
  constructor(reason: string) {
    super(`hive work refused: ${reason}`);
    this.name = 'HiveWorkRefused';
  }
}

/** Where the worker reads the effective compute settings (ComputeSettingsQueries in the app). */
export interface ComputeSettingsSource {
  merged(): Promise<{ values: ComputeSettings }>;
}

@Injectable()
export class HiveWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('HiveWorker');
  private readonly names: HiveNames;
  private readonly options: HiveOptions;
  private readonly shutdown = new AbortController();
  private subscription: BusSubscription | null = null;
  /** joins and leaves run one after another: the run under way, and at most one waiting */
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(LLM) private readonly llm: LanguageModel,
    @Inject(ComputeSettingsQueries) private readonly settings: ComputeSettingsSource,
    private readonly lifecycle: PlatformLifecycle,
    @Optional() @Inject(HIVE_OPTIONS) options: Partial<HiveOptions> | null,
    /** system pressure: each task waits the pause the throttle factor calls for (engine-pressure) */
    @Optional() private readonly gauge: PressureGauge | null = null,
  ) {
    this.names = hiveNames(config.kafka?.topicPrefix);
    this.options = { ...DEFAULT_HIVE_OPTIONS, ...(options ?? {}) };
  }

  /** Whether this worker is currently a member of `hive-workers`. */
  get joined(): boolean {
    return this.subscription !== null;
  }

  onApplicationBootstrap(): void {
    if (!this.lifecycle.runsBackgroundWork()) return;
    // joining a Kafka group takes a while and the bus may be down: never hold up the start
    void this.reconcile();
    this.timer = setInterval(() => void this.reconcile(), this.options.policyPollMs);
    this.timer.unref();
  }

  /**
   * Aborts the tasks in flight and begins leaving the group without waiting
   * (see BusListener for why): a join under way stops itself when it ends,
   * and the bus's close stops whatever is left.
   */
  onModuleDestroy(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.shutdown.abort();
    const subscription = this.subscription;
    this.subscription = null;
    void subscription?.stop().catch(() => undefined);
  }

  /**
   * Joins or leaves `hive-workers` to match the current settings. Calls
   * while one waits share it (it reads the settings when it starts), so a
   * slow join (a Kafka rebalance, a broker down) never piles up polls.
   */
  reconcile(): Promise<void> {
    if (this.queued) return this.queued;
    const queued = this.running.then(async () => {
      this.queued = null;
      try {
        await this.reconcileNow();
      } catch (error) {
        this.logger.warn(`hive membership: ${error instanceof Error ? error.message : String(error)}; retrying`);
      }
    });
    this.queued = queued;
    this.running = queued;
    return queued;
  }

  /** Handles one task message (the group's handler; exported behaviour for tests). */
  async handle(message: BusMessage): Promise<void> {
    const task = parseHiveTask(message.value);
    if (!task) {
      this.logger.warn(`ignoring a malformed hive task at ${message.topic}[${message.partition}]@${message.offset}`);
      return;
    }
    const remainingMs = Date.parse(task.deadline) - Date.now();
    if (remainingMs <= 0) return; // the origin stopped waiting for this attempt
    const refusal = hiveRefusal((await this.settings.merged()).values);
    if (refusal) {
      void this.reconcile(); // leave the group; not awaited: leaving waits for this very handler
      throw new HiveWorkRefused(refusal);
    }
    // under pressure the node slows down: it takes its next task only after the throttle's pause
    await this.gauge?.pace(this.shutdown.signal);
    if (this.shutdown.signal.aborted) throw new HiveWorkRefused('shutting down');
    const deadline = AbortSignal.timeout(Math.min(remainingMs, 2_147_483_647));
    // the origin's correlation id: on the model call and on the result
    const correlationId = correlationHeader(message.headers) ?? task.correlation_id;
    const result = await this.run(task, AbortSignal.any([this.shutdown.signal, deadline]), correlationId);
    if (result === null) return;
    const key = task.kind === 'subtask' ? task.goal_id : task.run_id;
    const headers = { [CORRELATION_HEADER]: correlationId, 'task-kind': task.kind, 'node-id': this.config.nodeId };
    await this.bus.publish(this.names.results, [{ key, value: result, headers }]);
  }

  private async reconcileNow(): Promise<void> {
    if (this.stopped) return;
    const refusal = hiveRefusal((await this.settings.merged()).values);
    if (refusal === null && !this.subscription) {
      const subscription = await this.bus.subscribe(
        { groupId: this.names.workersGroup, topics: [this.names.tasks], fromBeginning: true },
        (message) => this.handle(message),
      );
      if (this.stopped) await subscription.stop();
      else this.subscription = subscription;
      this.logger.log(`taking hive work from ${this.names.tasks}`);
    } else if (refusal !== null && this.subscription) {
      const subscription = this.subscription;
      this.subscription = null;
      this.logger.log(`no longer taking hive work: ${refusal}`);
      await subscription.stop();
    }
  }

  /** The task's result, or null when its deadline passed while it ran (nobody waits). Throws on shutdown. */
  private async run(task: HiveTask, signal: AbortSignal, correlationId: string): Promise<HiveResult | null> {
    const request: LlmRequest =
      task.kind === 'subtask'
        ? { messages: [{ role: 'system', content: SUBTASK_INSTRUCTIONS }, { role: 'user', content: task.description }], signal, correlationId }
        : { messages: [{ role: 'user', content: task.prompt }], model: task.model ?? undefined, signal, correlationId };
    let completion: LlmCompletion | null = null;
    let error: string | null = null;
    try {
      completion = await this.llm.complete(request);
    } catch (e) {
      if (this.shutdown.signal.aborted) throw e; // stays uncommitted: another node runs it
      if (signal.aborted) return null;
      error = e instanceof Error ? e.message : String(e);
    }
    const echo =
      task.kind === 'subtask'
        ? { goal_id: task.goal_id, subtask_id: task.subtask_id }
        : { run_id: task.run_id, user_id: task.user_id, prompt_id: task.prompt_id };
    return {
      task_id: task.task_id,
      kind: task.kind,
      attempt: task.attempt,
      origin_node: task.origin_node,
      correlation_id: task.correlation_id,
      ...echo,
      status: completion ? 'completed' : 'failed',
      result: (completion?.content ?? error ?? 'error').slice(0, MAX_RESULT_CHARS),
      source: completion?.source ?? (this.llm.kind === 'offline' ? 'offline' : 'model'),
      model: completion?.model ?? (task.kind === 'expert' && task.model ? task.model : this.llm.defaultModel),
      node_id: this.config.nodeId,
    };
  }
}
