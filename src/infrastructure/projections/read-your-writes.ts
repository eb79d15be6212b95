/**
 * Read-your-writes for REST clients (DESIGN.md §4): after a command appended
 * events up to position P, wait (bounded) until every projection that applies
 * one of those event types has reached P. When the projections run in this
 * process the engine answers from memory, as soon as the page holding P is
 * committed; when a worker process runs them (PROJECTIONS=off), their
 * checkpoints in the shared read store are polled, all in one read.
 *
 * Past the bound the command still answers success from its own outcome (the
 * write is durable); only a read that follows may not show it yet.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { PROCESS_ROLE, type ProcessRole } from '../process-role';
import { READ_STORE, type ReadStore } from '../read-store/read-store.port';
import { ProjectionRegistry } from './projection-registry';
import { ProjectionEngine } from './projection-engine';

const POLL_INTERVAL_MS = 10;

@Injectable()
export class ReadYourWrites {
  private readonly logger = new Logger('ReadYourWrites');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PROCESS_ROLE) private readonly role: ProcessRole,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly registry: ProjectionRegistry,
    private readonly engine: ProjectionEngine,
  ) {}

  /** Resolves true when caught up, false when the configured bound passed first. */
  async waitFor(position: number, eventTypes: readonly string[]): Promise<boolean> {
    return this.waitForProjections(this.registry.namesFor(eventTypes), position);
  }

  /** The same wait for every read model: after events of any type (a regional node's replicated write) up to `position`. */
  waitForAll(position: number): Promise<boolean> {
    return this.waitForProjections(
      this.registry.all().map((p) => p.name),
      position,
    );
  }

  private async waitForProjections(names: readonly string[], position: number): Promise<boolean> {
    if (names.length === 0 || position <= 0) return true;
    const timeoutMs = this.config.readYourWritesTimeoutMs;
    const inProcess = this.role === 'worker' || this.config.projections === 'inline';
    const reached = inProcess
      ? await this.engine.waitFor(names, position, timeoutMs)
      : await this.pollCheckpoints(names, position, timeoutMs);
    if (!reached) this.logger.warn(`projections ${names.join(', ')} did not reach ${position} within ${timeoutMs} ms`);
    return reached;
  }

  private async pollCheckpoints(names: readonly string[], position: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const checkpoints = await this.readStore.getCheckpoints(names);
      if (names.every((name) => (checkpoints.get(name) ?? 0) >= position)) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  }
}
