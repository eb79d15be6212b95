/**
 * Runs projections: each one subscribes to the event store from its own
 * checkpoint (catch-up, then live), applies the events it declares, and stores
 * the checkpoint after every batch. A failing batch is retried from the last
 * checkpoint after a pause; projections are idempotent, so that is safe.
 *
 * It also answers "has projection X reached position P?" for read-your-writes
 * (DESIGN.md §4), from memory when the projection runs here.
 */
import { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import type { ProjectionDefinition } from './projection';
import type { ReadStore } from '../read-store/read-store.port';
import { BatchedProjectionWriter } from './batched-writer';
import { PositionWaiters } from './position-waiters';

const META_COLLECTION = '_projections';
const RETRY_DELAY_MS = 500;

export interface ProjectionStatus {
  name: string;
  position: number;
  running: boolean;
  lastError: string | null;
}

export class ProjectionRunner {
  private readonly logger = new Logger('Projections');
  private readonly positions = new Map<string, number>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly errors = new Map<string, string>();
  private readonly waiters = new PositionWaiters();
  private stopping = false;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly source: { all(): readonly ProjectionDefinition[] },
  ) {}

  private get projections(): readonly ProjectionDefinition[] {
    return this.source.all();
  }

  /** Prepares every projection (version check, indexes) and starts its subscription. */
  async start(): Promise<void> {
    this.stopping = false;
    for (const projection of this.projections) {
      await this.prepare(projection);
      this.subscribe(projection);
    }
  }

  /** Resolves once every projection has reached `position` (or the timeout passed). */
  async catchUpTo(position: number, timeoutMs: number): Promise<boolean> {
    return this.waitFor(
      this.projections.map((p) => p.name),
      position,
      timeoutMs,
    );
  }

  /** true when all named projections reached `position` before the timeout. */
  waitFor(names: readonly string[], position: number, timeoutMs: number): Promise<boolean> {
    return this.waiters.waitFor(names, position, timeoutMs, (name) => this.positions.get(name) ?? 0);
  }

  status(): ProjectionStatus[] {
    return this.projections.map((p) => ({
      name: p.name,
      position: this.positions.get(p.name) ?? 0,
      running: this.subscriptions.has(p.name),
      lastError: this.errors.get(p.name) ?? null,
    }));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const running = [...this.subscriptions.values()];
    this.subscriptions.clear();
    await Promise.all(running.map((s) => s.stop()));
    this.waiters.cancelAll();
  }

  /**
   * Drops a projection's read model and replays the whole log into it.
   * Used by `npm run projections:rebuild` while the projection is not running.
   */
  async rebuild(
    projection: ProjectionDefinition,
    onProgress: (position: number, head: number, events: number) => void = () => undefined,
    pageSize = 2000,
  ): Promise<{ events: number; position: number }> {
    await this.reset(projection);
    const head = await this.eventStore.headPosition();
    let position = 0;
    let events = 0;
    while (position < head) {
      const page = await this.eventStore.readAll({ after: position, maxCount: pageSize });
      if (page.length === 0) break;
      await this.applyBatch(projection, page);
      position = page[page.length - 1].position;
      events += page.length;
      onProgress(position, head, events);
    }
    await this.readStore.flush();
    return { events, position };
  }

  private async prepare(projection: ProjectionDefinition): Promise<void> {
    const meta = await this.readStore.collection(META_COLLECTION).findOne({ _id: projection.name });
    if (meta && meta.version !== projection.version) {
      this.logger.log(`${projection.name}: version ${String(meta.version)} → ${projection.version}, rebuilding`);
      await this.reset(projection);
    } else if (!meta) {
      await this.writeMeta(projection);
    }
    for (const { collection, spec } of projection.indexes ?? []) {
      await this.readStore.collection(collection).createIndex(spec);
    }
    this.positions.set(projection.name, (await this.readStore.getCheckpoint(projection.name)) ?? 0);
  }

  private async reset(projection: ProjectionDefinition): Promise<void> {
    for (const collection of projection.collections) await this.readStore.dropCollection(collection);
    await this.readStore.deleteCheckpoint(projection.name);
    for (const { collection, spec } of projection.indexes ?? []) {
      await this.readStore.collection(collection).createIndex(spec);
    }
    await this.writeMeta(projection);
    this.positions.set(projection.name, 0);
  }

  private async writeMeta(projection: ProjectionDefinition): Promise<void> {
    await this.readStore
      .collection(META_COLLECTION)
      .replaceOne({ _id: projection.name }, { _id: projection.name, version: projection.version }, { upsert: true });
  }

  private subscribe(projection: ProjectionDefinition): void {
    const fromPosition = this.positions.get(projection.name) ?? 0;
    const subscription = this.eventStore.subscribeToAll({ fromPosition }, async (events) => {
      await this.applyBatch(projection, events);
      const position = events[events.length - 1].position;
      this.positions.set(projection.name, position);
      this.errors.delete(projection.name);
      this.waiters.notify();
    });
    this.subscriptions.set(projection.name, subscription);
    subscription.done.catch((error: unknown) => this.restartAfterFailure(projection, subscription, error));
  }

  private restartAfterFailure(projection: ProjectionDefinition, failed: Subscription, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.errors.set(projection.name, message);
    this.logger.error(`${projection.name} failed at position ${this.positions.get(projection.name)}: ${message}`);
    setTimeout(() => {
      if (this.stopping || this.subscriptions.get(projection.name) !== failed) return;
      this.subscribe(projection);
    }, RETRY_DELAY_MS).unref();
  }

  /** Applies a batch with bulk writes, then stores the checkpoint (after the writes: at-least-once). */
  private async applyBatch(projection: ProjectionDefinition, events: RecordedEvent[]): Promise<void> {
    const writer = new BatchedProjectionWriter(this.readStore);
    for (const event of events) {
      if (projection.eventTypes.includes(event.type)) await projection.apply(event, writer);
    }
    await writer.flush();
    await this.readStore.setCheckpoint(projection.name, events[events.length - 1].position);
  }
}
