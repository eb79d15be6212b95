/**
 * The production adapter of the event store port: EventStoreDB / KurrentDB
 * through @eventstore/db-client (gRPC). Thin by design (DESIGN.md §6): every
 * translation lives in mapping.ts and is unit-tested there; this file only
 * sequences calls. Its contract suite (test/contract/event-store.eventstoredb.spec.ts)
 * runs when EVENTSTORE_CONNECTION_STRING is set.
 *
 * System events (`$`-prefixed types or streams: the server's own bookkeeping)
 * never reach the port's readAll, headPosition or subscribeToAll.
 */
import { BACKWARDS, END, EventStoreDBClient, excludeSystemEvents, type AllStreamResolvedEvent } from '@eventstore/db-client';
import type { Readable } from 'node:stream';
import {
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedRevision,
  matchesMetadata,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeToAllOptions,
  Subscription,
} from '../event-store.port';
import type { ReadSealedOptions, SealedEvent } from '../hash-chain';
import {
  acceptsPosition,
  checkExpectedRevision,
  continueReadAllPlan,
  isStreamNotFoundError,
  isSystemEvent,
  isTransientError,
  isWrongExpectedVersionError,
  positionOf,
  resubscribeDelayMs,
  toAppendResult,
  toClientExpectedRevision,
  toClientPosition,
  toClientReadStreamOptions,
  sealOfRecorded,
  toReadAllPlan,
  toRecordedEvent,
  toSealedEvent,
  toSealedJsonEvents,
  toWrongExpectedRevisionError,
  type ClientResolvedEvent,
} from './mapping';

/** The part of the client the adapter uses (a test can pass a double). */
export type EventStoreDbClientLike = Pick<
  EventStoreDBClient,
  'appendToStream' | 'readStream' | 'readAll' | 'subscribeToAll' | 'dispose'
>;

export interface EventStoreDbEventStoreOptions {
  /** first pause before re-creating a subscription the server dropped (doubles per attempt; default 500 ms) */
  resubscribeDelayMs?: number;
  /** longest pause between re-creation attempts (default 15 s) */
  maxResubscribeDelayMs?: number;
  /** events per request when paging through $all (default 500) */
  readPageSize?: number;
  /** told about each transient subscription drop before the pause (default: console.warn) */
  onSubscriptionDropped?: (error: unknown, attempt: number, delayMs: number) => void;
  /** close() disposes the client (default true: the store owns the client it was given) */
  disposeClientOnClose?: boolean;
}

export interface ConnectOptions extends EventStoreDbEventStoreOptions {
  /** read the head of $all once, so a wrong address fails at startup (default true) */
  verify?: boolean;
}

interface SubscriptionControl {
  stopped: boolean;
  /** position of the last event handed to the handler; resumption point after a drop */
  last: number;
  /** wakes the loop from a wait (new data, stop, end of a pause) */
  interrupt: () => void;
}

type PumpOutcome = { kind: 'stopped' } | { kind: 'dropped'; error: unknown };

/** A subscription that ends without an error was closed by the server (shutdown, leader change). */
class SubscriptionEndedError extends Error {
  constructor() {
    super('EventStoreDB ended the subscription');
    this.name = 'SubscriptionEndedError';
  }
}

function defaultOnSubscriptionDropped(error: unknown, attempt: number, delayMs: number): void {
  console.warn(
    `EventStoreDB subscription dropped (${error instanceof Error ? error.message : String(error)}); ` +
      `re-creating it from the last delivered position in ${delayMs} ms (attempt ${attempt})`,
  );
}

export class EventStoreDbEventStore implements EventStore {
  private readonly resubscribeBaseMs: number;
  private readonly resubscribeMaxMs: number;
  private readonly pageSize: number;
  private readonly onSubscriptionDropped: (error: unknown, attempt: number, delayMs: number) => void;
  private readonly disposeClientOnClose: boolean;
  private readonly subscriptions = new Set<Subscription>();
  private closing: Promise<void> | null = null;
  /** appends of this process, one at a time: each seal chains to the log's head read just before it */
  private appending: Promise<unknown> = Promise.resolve();

  /**
   * Creates the client from a connection string (`esdb://host:2113?tls=false`,
   * `kurrentdb://...`, `esdb+discover://...`). The client connects lazily and
   * reconnects by itself for new calls after the server went away.
   */
  static async connect(connectionString: string, options: ConnectOptions = {}): Promise<EventStoreDbEventStore> {
    const { verify = true, ...storeOptions } = options;
    const client = EventStoreDBClient.connectionString(connectionString);
    const store = new EventStoreDbEventStore(client, storeOptions);
    if (verify) {
      try {
        await store.headPosition();
      } catch (error) {
        await client.dispose().catch(() => undefined);
        throw new Error(
          `EventStoreDB at ${redactCredentials(connectionString)} is not reachable: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    return store;
  }

  constructor(
    private readonly client: EventStoreDbClientLike,
    options: EventStoreDbEventStoreOptions = {},
  ) {
    this.resubscribeBaseMs = options.resubscribeDelayMs ?? 500;
    this.resubscribeMaxMs = options.maxResubscribeDelayMs ?? 15_000;
    this.pageSize = Math.max(2, options.readPageSize ?? 500);
    this.onSubscriptionDropped = options.onSubscriptionDropped ?? defaultOnSubscriptionDropped;
    this.disposeClientOnClose = options.disposeClientOnClose ?? true;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    this.assertOpen('append');
    toClientExpectedRevision(expected); // validates
    // An append of nothing checks the expectation only; the server is not asked to write.
    if (events.length === 0) return this.appendNothing(streamId, expected);
    // Serialised now, so that a caller mutating its objects afterwards changes nothing.
    const copies = events.map((event) => JSON.parse(JSON.stringify(event)) as NewEvent);
    const run = this.appending.then(() => this.appendSealed(streamId, copies, expected));
    this.appending = run.catch(() => undefined);
    return run;
  }

  /**
   * Seals the events (hash-chain.ts: the stream's last hash, the log's
   * running hash) and appends them with the exact revision their seals
   * name. Appends of this process run one at a time, so the running hash
   * follows their commit order; another process writing to the same
   * database between the head read and the append shows up in verification
   * as a broken running hash (stream chains stay exact: they are guarded by
   * the expected revision). An `any` or `stream_exists` append that loses a
   * race re-reads and retries.
   */
  private async appendSealed(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    for (let attempt = 1; ; attempt++) {
      const tip = await this.streamTip(streamId);
      checkExpectedRevision(streamId, expected, tip ? tip.revision : 'no_stream');
      const head = await this.newest();
      const sealed = toSealedJsonEvents(streamId, tip ? tip.revision + 1 : 0, events, tip?.hash ?? null, head?.seal?.chain ?? null);
      const expectedRevision = toClientExpectedRevision(tip ? tip.revision : 'no_stream');
      try {
        return toAppendResult(await this.client.appendToStream(streamId, sealed.events, { expectedRevision }));
      } catch (error) {
        if (!isWrongExpectedVersionError(error)) throw error;
        const retry = (expected === 'any' || expected === 'stream_exists') && attempt < 5;
        if (!retry) throw toWrongExpectedRevisionError(error, { streamId, expected });
      }
    }
  }

  /** The stream's last revision and its hash (null: unsealed), or null when the stream does not exist. */
  private async streamTip(streamId: string): Promise<{ revision: number; hash: string | null } | null> {
    try {
      for await (const resolved of this.client.readStream(streamId, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
        const event = toRecordedEvent(resolved as ClientResolvedEvent);
        return { revision: event.revision, hash: sealOfRecorded(resolved as ClientResolvedEvent)?.hash ?? null };
      }
    } catch (error) {
      if (isStreamNotFoundError(error)) return null;
      throw error;
    }
    return null;
  }

  private async newest(): Promise<SealedEvent | undefined> {
    const [newest] = await this.readAllAs({ direction: 'backwards', maxCount: 1 }, toSealedEvent);
    return newest;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen('readStream');
    const clientOptions = toClientReadStreamOptions(options);
    if (clientOptions.maxCount === 0) return [];
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, clientOptions)) {
        events.push(toRecordedEvent(resolved as ClientResolvedEvent));
      }
    } catch (error) {
      if (isStreamNotFoundError(error)) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen('readAll');
    const where = options.where;
    return this.readAllAs(options, toRecordedEvent, where ? (event) => matchesMetadata(event.metadata, where) : undefined);
  }

  async readSealed(options: ReadSealedOptions): Promise<SealedEvent[]> {
    this.assertOpen('readSealed');
    return this.readAllAs({ after: options.after, maxCount: options.maxCount }, toSealedEvent);
  }

  /** Pages of $all mapped by `map`; `keep` filters in code what the server cannot (metadata). */
  private async readAllAs<T>(options: ReadAllOptions, map: (resolved: ClientResolvedEvent) => T, keep?: (value: T) => boolean): Promise<T[]> {
    const first = toReadAllPlan(options);
    const limit = first.limit;
    const events: T[] = [];
    const types = options.eventTypes ? new Set(options.eventTypes) : null;
    let plan = first;
    // Pages of $all: system events (and types not asked for) are skipped client-side
    // (the client's readAll has no filter), so a page may yield fewer port events than it read.
    while (events.length < limit) {
      const remaining = limit - events.length;
      // +1: the page may start with the event exactly at the (exclusive) bound.
      const pageSize = Number.isFinite(remaining) ? Math.max(2, Math.min(this.pageSize, remaining + 1)) : this.pageSize;
      let read = 0;
      let lastSeen: number | undefined;
      for await (const resolved of this.client.readAll({
        fromPosition: plan.fromPosition,
        direction: plan.direction,
        maxCount: pageSize,
      })) {
        read++;
        const event = (resolved as AllStreamResolvedEvent).event;
        if (!event) continue;
        const position = positionOf(resolved as ClientResolvedEvent);
        lastSeen = position;
        if (!acceptsPosition(plan, position) || isSystemEvent(event) || (types && !types.has(event.type))) continue;
        if (events.length >= limit) continue;
        const value = map(resolved as ClientResolvedEvent);
        if (!keep || keep(value)) events.push(value);
      }
      if (read < pageSize || lastSeen === undefined || lastSeen === plan.bound) break;
      plan = continueReadAllPlan(plan, lastSeen, limit - events.length);
    }
    return events;
  }

  async headPosition(): Promise<number> {
    const [newest] = await this.readAll({ direction: 'backwards', maxCount: 1 });
    return newest?.position ?? 0;
  }

  subscribeToAll(options: SubscribeToAllOptions, handler: BatchHandler): Subscription {
    const maxBatchSize = options.maxBatchSize ?? 500;
    if (!Number.isSafeInteger(options.fromPosition) || options.fromPosition < 0) {
      throw new Error(`subscribeToAll: fromPosition must be an integer >= 0, got ${options.fromPosition}`);
    }
    if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
      throw new Error(`subscribeToAll: maxBatchSize must be an integer >= 1, got ${maxBatchSize}`);
    }
    const control: SubscriptionControl = {
      stopped: this.closing !== null,
      last: options.fromPosition,
      interrupt: () => undefined,
    };

    const done = this.runSubscription(control, handler, maxBatchSize);
    // The caller observes `done`; this only keeps an ignored failure from
    // crashing the process as an unhandled rejection.
    done.catch(() => undefined);
    const subscription: Subscription = {
      done,
      stop: async () => {
        control.stopped = true;
        control.interrupt();
        await done.catch(() => undefined);
      },
    };
    this.subscriptions.add(subscription);
    void done.catch(() => undefined).then(() => this.subscriptions.delete(subscription));
    return subscription;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.subscriptions].map((s) => s.stop()));
      if (this.disposeClientOnClose) await this.client.dispose();
    })();
    return this.closing;
  }

  private async appendNothing(streamId: string, expected: ExpectedRevision): Promise<AppendResult> {
    const [last] = await this.readStream(streamId, { direction: 'backwards', maxCount: 1 });
    checkExpectedRevision(streamId, expected, last ? last.revision : 'no_stream');
    return { nextExpectedRevision: last ? last.revision : -1, position: await this.headPosition() };
  }

  /**
   * Catch-up then live, re-created from the last delivered position when the
   * server drops it with a transient error. Events at or before that position
   * are skipped, so delivery never goes backwards.
   */
  private async runSubscription(control: SubscriptionControl, handler: BatchHandler, maxBatchSize: number): Promise<void> {
    let attempt = 0;
    while (!control.stopped) {
      const source = this.client.subscribeToAll(
        { fromPosition: toClientPosition(control.last), filter: excludeSystemEvents() },
        // Buffer at most one batch: the server is not read further while the handler runs.
        { highWaterMark: maxBatchSize },
      );
      let outcome: PumpOutcome;
      try {
        outcome = await this.pump(source, control, handler, maxBatchSize, () => (attempt = 0));
      } finally {
        await release(source);
      }
      if (outcome.kind === 'stopped') return;
      if (!(outcome.error instanceof SubscriptionEndedError) && !isTransientError(outcome.error)) throw outcome.error;
      attempt++;
      const delayMs = resubscribeDelayMs(attempt, this.resubscribeBaseMs, this.resubscribeMaxMs);
      this.onSubscriptionDropped(outcome.error, attempt, delayMs);
      await pause(control, delayMs);
    }
  }

  /** Hands the events already buffered to the handler as one batch, and awaits it before reading on. */
  private async pump(
    source: Readable,
    control: SubscriptionControl,
    handler: BatchHandler,
    maxBatchSize: number,
    onDelivered: () => void,
  ): Promise<PumpOutcome> {
    let ended = false;
    let failure: { error: unknown } | null = null;
    // Once this pump returns, late events of its released source must not cut a pause short.
    let active = true;
    const wake = () => {
      if (active) control.interrupt();
    };
    source.on('readable', wake);
    source.on('end', () => {
      ended = true;
      wake();
    });
    source.on('error', (error: unknown) => {
      failure ??= { error };
      wake();
    });

    try {
      while (!control.stopped) {
        const batch: RecordedEvent[] = [];
        let resolved: AllStreamResolvedEvent | null;
        while (batch.length < maxBatchSize && (resolved = source.read() as AllStreamResolvedEvent | null) !== null) {
          if (!resolved.event || isSystemEvent(resolved.event)) continue;
          const event = toRecordedEvent(resolved as ClientResolvedEvent);
          if (event.position <= control.last) continue; // already delivered before a re-creation
          batch.push(event);
        }
        if (batch.length > 0) {
          await handler(batch);
          control.last = batch[batch.length - 1].position;
          onDelivered();
          continue;
        }
        // Buffered events went out first; only then does a drop or an end count.
        if (failure) return { kind: 'dropped', error: (failure as { error: unknown }).error };
        if (ended) return { kind: 'dropped', error: new SubscriptionEndedError() };
        // read() returned null, so the stream emits 'readable' when the next event arrives.
        await new Promise<void>((resolve) => (control.interrupt = resolve));
        control.interrupt = () => undefined;
      }
      return { kind: 'stopped' };
    } finally {
      active = false;
    }
  }

  private assertOpen(operation: string): void {
    if (this.closing) throw new Error(`EventStoreDbEventStore is closed: ${operation} rejected`);
  }
}

/** Cancels the server-side subscription; late errors of the cancelled call are ignored. */
async function release(source: Readable & { unsubscribe?: () => Promise<void> }): Promise<void> {
  source.on('error', () => undefined);
  try {
    await source.unsubscribe?.();
  } catch {
    // already gone
  }
  source.destroy();
}

/** Waits `ms`, or less if stop() is called meanwhile. */
function pause(control: SubscriptionControl, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      control.interrupt = () => undefined;
      resolve();
    }
    control.interrupt = done;
  });
}

function redactCredentials(connectionString: string): string {
  return connectionString.replace(/\/\/[^@/]*@/, '//***@');
}
