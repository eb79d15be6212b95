/**
 * Runs due `/time_agent` prompts through the chat pipeline, exactly once.
 *
 * Where the background work runs (PlatformLifecycle.writesInBackground():
 * PROJECTIONS=inline, or the worker), a poller looks every `pollIntervalMs`
 * in the `scheduled_prompts` read model for pending prompts that are due and
 * running ones whose lease expired. For each it:
 *
 * 1. claims the prompt on its stream (ScheduledPromptClaimed, appended at the
 *    revision it read). Of several instances racing for one prompt, one
 *    appends; the others get a revision conflict, re-read, and the decider
 *    refuses them (an unexpired lease). The read model only says where to
 *    look: a lagging one costs a refused claim, never a second run.
 * 2. runs the prompt through ChatPipeline with `messageId = schedule_id`.
 * 3. records ScheduledPromptCompleted (or ScheduledPromptFailed, with a retry
 *    while attempts are left and the error is not a refusal of the input).
 *
 * A crash between 1 and 3 leaves a claim whose lease runs out; then the
 * prompt is claimed again and run again with the same message id, which the
 * pipeline records once (it answers the first run's response), so the
 * conversation gets the result once. See docs/chat-scheduler.md.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  type ScheduledPromptClaimed,
  type ScheduledPromptEvent,
  scheduledPromptDecider,
  scheduledPromptStreamId,
} from '../aggregates/chat/scheduled-prompt';
import { leftIn } from '../aggregates/shared/decider';
import { DomainError } from '../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { Clock } from '../infrastructure/clock';
import { EVENT_STORE, type EventStore, WrongExpectedRevisionError } from '../infrastructure/event-store/event-store.port';
import { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { READ_STORE, type ReadStore } from '../infrastructure/read-store/read-store.port';
import { waitAtMost } from '../infrastructure/wait-at-most';
import { SCHEDULED_PROMPTS, type ScheduledPromptDoc } from '../projections/chat/scheduled-prompts.projection';
import { CommandExecutor, type CommandContext } from '../modules/common/command-executor';
import { ChatPipeline, plainTurn } from '../modules/chat/chat-pipeline';
import { SCHEDULE_SETTINGS, type ScheduleSettings } from '../modules/chat/schedule/schedule-settings';

export const SCHEDULER_ACTOR = 'system:scheduler';

/** What one run of a due prompt came to. */
export type RunOutcome = 'completed' | 'failed' | 'retry' | 'skipped';

/** A refusal of the input (guardrail, budget, bad request: a DomainError) fails for good; anything else may pass on a retry. */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof DomainError);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`;
  return String(error);
}

@Injectable()
export class PromptScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('PromptScheduler');
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  /** the poll loop is not running */
  private stopped = true;
  /** stop() was called: no new run starts */
  private closing = false;
  /** prompts this instance is running now: never claimed again by it while they run */
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly executor: CommandExecutor,
    private readonly pipeline: ChatPipeline,
    private readonly clock: Clock,
    private readonly lifecycle: PlatformLifecycle,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SCHEDULE_SETTINGS) private readonly settings: ScheduleSettings,
  ) {}

  onApplicationBootstrap(): void {
    if (this.lifecycle.writesInBackground()) this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  /** Starts polling (idempotent). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.closing = false;
    this.scheduleNextPoll();
  }

  /** Stops polling and waits (bounded by stopTimeoutMs) for the runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.polling && !(await waitAtMost(this.polling, this.settings.stopTimeoutMs))) {
      this.logger.warn(`runs still in progress after ${this.settings.stopTimeoutMs} ms; their leases will expire and they run again elsewhere`);
    }
  }

  get running(): boolean {
    return !this.stopped;
  }

  private scheduleNextPoll(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = this.poll()
        .then(
          () => undefined,
          (error: unknown) => this.logger.warn(`poll failed: ${messageOf(error)}`),
        )
        .finally(() => {
          this.polling = null;
          this.scheduleNextPoll();
        });
    }, this.settings.pollIntervalMs);
    this.timer.unref();
  }

  /**
   * One poll: finds the due prompts (and the expired claims) in the read
   * model and runs each that this instance wins the claim of, at most
   * `concurrency` at once. Resolves when those runs ended.
   */
  async poll(): Promise<Map<string, RunOutcome>> {
    const outcomes = new Map<string, RunOutcome>();
    // not ready: starting (read models catching up) or draining (no new work)
    if (this.closing || !this.lifecycle.isReady()) return outcomes;
    const now = this.clock.now().toISOString();
    const prompts = this.readStore.collection<ScheduledPromptDoc>(SCHEDULED_PROMPTS);
    const options = { sort: { run_at: 1 as const }, limit: this.settings.batchSize };
    const [due, expired] = await Promise.all([
      prompts.find({ status: 'pending', run_at: { $lte: now }, due_at: { $lte: now } }, options),
      prompts.find({ status: 'running', lease_until: { $lte: now } }, options),
    ]);
    const ids = [...new Set([...due, ...expired].map((d) => d.schedule_id))].filter((id) => !this.inFlight.has(id));
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let id = ids[next++]; id !== undefined && !this.closing; id = ids[next++]) {
        outcomes.set(id, await this.runOne(id));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.settings.concurrency, ids.length)) }, worker));
    return outcomes;
  }

  /** Claims one prompt and, when this instance won the claim, runs it and records the outcome. */
  async runOne(scheduleId: string): Promise<RunOutcome> {
    if (this.inFlight.has(scheduleId)) return 'skipped';
    this.inFlight.add(scheduleId);
    try {
      return await this.claimAndRun(scheduleId);
    } finally {
      this.inFlight.delete(scheduleId);
    }
  }

  private async claimAndRun(scheduleId: string): Promise<RunOutcome> {
    const streamId = scheduledPromptStreamId(scheduleId);
    const { maxAttempts, leaseMs, retryDelayMs } = this.settings;
    const context = await this.contextOf(streamId, scheduleId);
    let claim;
    try {
      claim = await this.executor.execute(
        scheduledPromptDecider,
        streamId,
        { kind: 'claim', nodeId: this.config.nodeId, leaseMs, maxAttempts },
        context,
        { maxRetries: 2 },
      );
    } catch (error) {
      // another instance claimed it first, it is not due, or it is done: not ours to run
      if (error instanceof DomainError || error instanceof WrongExpectedRevisionError) return 'skipped';
      throw error;
    }
    const claimed = claim.events.find((e: ScheduledPromptEvent): e is ScheduledPromptClaimed => e.type === 'ScheduledPromptClaimed');
    if (!claimed) return 'failed'; // the last attempt's lease ran out: given up
    const { attempt } = claimed.data;
    const state = leftIn(claim.state, 'running');

    let response: string;
    try {
      const reply = await this.pipeline.run(
        plainTurn({ userId: state.userId, promptId: state.promptId, prompt: state.prompt, messageId: scheduleId, origin: 'schedule' }),
        context,
      );
      response = reply.response;
    } catch (error) {
      const retryable = isRetryable(error);
      this.logger.warn(`scheduled prompt ${scheduleId} attempt ${attempt} failed: ${messageOf(error)}`);
      const failed = await this.executor.execute(
        scheduledPromptDecider,
        streamId,
        { kind: 'fail', attempt, error: messageOf(error), retryable, retryDelayMs, maxAttempts },
        context,
      );
      const event = failed.events[0];
      return event?.type === 'ScheduledPromptFailed' && event.data.will_retry ? 'retry' : 'failed';
    }
    // If this append is lost (crash, store down), the lease expires and a
    // re-run of the same message id records nothing new before completing.
    await this.executor.execute(scheduledPromptDecider, streamId, { kind: 'complete', attempt, messageId: scheduleId, response }, context);
    return 'completed';
  }

  /** Events of a run carry the correlation id of the request that scheduled the prompt. */
  private async contextOf(streamId: string, scheduleId: string): Promise<CommandContext> {
    const [first] = await this.eventStore.readStream(streamId, { maxCount: 1 });
    return { actor: SCHEDULER_ACTOR, correlationId: first?.metadata.correlationId ?? scheduleId, causationId: first?.metadata.eventId ?? null };
  }
}
