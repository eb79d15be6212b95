/**
 * Runs the process managers (sagas) at least once per recorded event, also
 * across restarts and crashes: one checkpointed subscription (checkpoint
 * `sagas`) hands each batch of recorded events to the process managers that
 * handle their types, dispatches every command they call for on the
 * CommandBus and awaits them all; only then does the checkpoint move.
 *
 * - A command refused for good (the registration's `isRefusal`, the domain's
 *   DomainError) counts as handled: the aggregate said no, and asking again
 *   changes nothing. Logged at debug level.
 * - Any other failure (a conflict past its retries, a store outage, a bug)
 *   fails the batch, after the batch's other commands settled; the
 *   subscription retries it from the checkpoint after `retryDelayMs`. Nothing
 *   is skipped; the commands that had succeeded run again, which idempotent
 *   commands absorb.
 *
 * The commands of one batch run concurrently (at most
 * `maxConcurrentCommands` at once); the command executor serializes those on
 * one stream.
 */
import { Logger } from '@nestjs/common';
import type { CommandBus, ICommand } from '@nestjs/cqrs';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import { CheckpointedSubscription } from '../eventsourcing/checkpointed-subscription';
import type { ReadStore } from '../read-store/read-store.port';
import type { ProcessManager } from './process-manager';

export const SAGA_CHECKPOINT = 'sagas';
const SAGA_BATCH = 2000;

export interface SagaRunnerOptions {
  /** pause before a failed batch is tried again (default 500 ms) */
  retryDelayMs?: number;
  /** commands of one batch in flight at once (default 2,000: a whole batch; the executor groups those of one stream) */
  maxConcurrentCommands?: number;
}

/** What the feature side hands the runner (SagasModule). */
export interface SagaRegistration {
  processManagers: readonly ProcessManager[];
  /** true for a refusal no retry changes: the command counts as handled */
  isRefusal(error: unknown): boolean;
}

export interface SagaRunnerStatus {
  /** last position handled (the checkpoint) */
  position: number;
  /** commands that completed or were refused */
  commands: number;
  refused: number;
  /** batches that failed and were retried */
  failedBatches: number;
}

interface Dispatch {
  command: ICommand;
  manager: string;
  event: RecordedEvent;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class SagaRunner {
  private readonly logger = new Logger('Sagas');
  private readonly byType = new Map<string, ProcessManager[]>();
  private isRefusal: (error: unknown) => boolean = () => false;
  private subscription: CheckpointedSubscription | null = null;
  private readonly counts = { commands: 0, refused: 0, failedBatches: 0 };
  private readonly retryDelayMs: number;
  private readonly maxConcurrentCommands: number;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly commands: Pick<CommandBus, 'execute'>,
    options: SagaRunnerOptions = {},
  ) {
    this.retryDelayMs = options.retryDelayMs ?? 500;
    this.maxConcurrentCommands = options.maxConcurrentCommands ?? SAGA_BATCH;
  }

  /** Adds process managers; before start(). */
  register(registration: SagaRegistration): void {
    if (this.subscription) throw new Error('SagaRunner: register before start');
    for (const manager of registration.processManagers) {
      for (const type of new Set(manager.eventTypes)) this.byType.set(type, [...(this.byType.get(type) ?? []), manager]);
    }
    this.isRefusal = registration.isRefusal;
  }

  /** The names of the registered process managers. */
  processManagers(): string[] {
    return [...new Set([...this.byType.values()].flat().map((m) => m.name))];
  }

  /**
   * Starts from the checkpoint. Without any process manager it does not
   * start, so that a process without them never moves the checkpoint past
   * events they have not seen.
   */
  async start(): Promise<void> {
    if (this.byType.size === 0 || this.subscription) return;
    // large batches: the commands of a batch go out together, and the executor groups those of one stream into one append
    this.subscription = new CheckpointedSubscription(this.eventStore, this.readStore, SAGA_CHECKPOINT, (events) => this.handle(events), this.retryDelayMs, SAGA_BATCH);
    await this.subscription.start();
  }

  /** Stops after the batch in flight (its commands included). */
  async stop(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
  }

  status(): SagaRunnerStatus {
    return { position: this.subscription?.currentPosition() ?? 0, ...this.counts };
  }

  /** One batch: resolves once every command it calls for completed or was refused; throws otherwise. */
  async handle(events: readonly RecordedEvent[]): Promise<void> {
    const dispatches: Dispatch[] = [];
    for (const event of events) {
      for (const manager of this.byType.get(event.type) ?? []) {
        for (const command of await manager.react(event)) dispatches.push({ command, manager: manager.name, event });
      }
    }
    const failures: { dispatch: Dispatch; error: unknown }[] = [];
    await this.forEachConcurrently(dispatches, async (dispatch) => {
      try {
        await this.commands.execute(dispatch.command);
        this.counts.commands++;
      } catch (error) {
        if (!this.isRefusal(error)) {
          failures.push({ dispatch, error });
          return;
        }
        this.counts.commands++;
        this.counts.refused++;
        this.logger.debug(`${this.where(dispatch)}: refused: ${messageOf(error)}`);
      }
    });
    if (failures.length === 0) return;
    this.counts.failedBatches++;
    const [first] = failures;
    throw new Error(`${failures.length} of ${dispatches.length} saga commands failed; first ${this.where(first.dispatch)}: ${messageOf(first.error)}`, {
      cause: first.error,
    });
  }

  private where({ command, manager, event }: Dispatch): string {
    return `${manager} on ${event.type}@${event.position} → ${command.constructor.name}`;
  }

  private async forEachConcurrently<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < items.length) await run(items[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(this.maxConcurrentCommands, items.length) }, lane));
  }
}
