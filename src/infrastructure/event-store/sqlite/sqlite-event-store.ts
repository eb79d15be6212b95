import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import {
  AppendResult,
  BatchHandler,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  JsonObject,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeToAllOptions,
  Subscription,
} from '../event-store.port';
import type { ReadSealedOptions, SealedEvent } from '../hash-chain';
import {
  BatchWriter,
  openEventDatabase,
  refusalError,
  type SerializedEvent,
  type WriteOutcome,
  type WriteRequest,
} from './sqlite-batch-writer';
import type { WriterData, WriterReply, WriterRequest } from './sqlite-writer.worker';

export { DuplicateEventIdError } from './sqlite-batch-writer';

export interface SqliteEventStoreOptions {
  /** database file path, or ':memory:' */
  file: string;
  /** how often a caught-up subscription re-reads, so writes of other processes are seen too */
  pollIntervalMs?: number;
  /** how long a write waits for another process's write lock before failing */
  busyTimeoutMs?: number;
  /** how many of this process's latest committed events subscriptions can take from memory (default 10,000) */
  tailCapacity?: number;
  /**
   * where group commits run: `worker` (default for a file) commits on a
   * connection of a worker thread, so the fsync never blocks the event loop;
   * `inline` on the store's own connection (always for `:memory:`)
   */
  writer?: 'worker' | 'inline';
  /** told after each commit how many appends it acknowledged and how many events they wrote (metrics) */
  onCommit?: (appends: number, events: number) => void;
}

export interface SqliteEventStoreStats {
  /** transactions committed by this instance (one per group-commit flush) */
  commits: number;
  /** append calls acknowledged as successful */
  appends: number;
  /** events written */
  events: number;
  /** events subscriptions took from memory (the tail) rather than from the file */
  servedFromMemory: number;
}

interface EventRow {
  position: number;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

interface PendingAppend {
  streamId: string;
  events: SerializedEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}


const COLUMNS = 'position, stream_id, revision, type, data, metadata, recorded_at';
/** SQLite treats LIMIT -1 as "no limit". */
const NO_LIMIT = -1;
const END = Number.MAX_SAFE_INTEGER;

export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly pollIntervalMs: number;
  private readonly stmt: Statements;
  private queue: PendingAppend[] = [];
  private flushHandle: NodeJS.Immediate | null = null;
  /** the group commit under way, if any: appends arriving meanwhile wait for the next one */
  private committing: Promise<void> | null = null;
  private readonly writes: Writes;
  /** wake-ups of caught-up subscriptions, called after each commit that wrote events */
  private readonly commitWaiters = new Set<() => void>();
  private readonly subscriptions = new Set<Subscription>();
  private closing: Promise<void> | null = null;
  private readonly counters: SqliteEventStoreStats = { commits: 0, appends: 0, events: 0, servedFromMemory: 0 };
  /**
   * The latest events this process committed, in position order: what a
   * caught-up subscription asks for next, handed over without a query or a
   * second parse. Events of other processes are never here; a gap in the
   * positions sends the reader to the file.
   */
  private tail: RecordedEvent[] = [];
  private readonly typedReads = new Map<string, Database.Statement<unknown[], EventRow>>();
  private readonly tailCapacity: number;
  private readonly onCommit: ((appends: number, events: number) => void) | undefined;

  constructor(options: SqliteEventStoreOptions) {
    this.onCommit = options.onCommit;
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.tailCapacity = options.tailCapacity ?? 10_000;
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.db = openEventDatabase(options.file, busyTimeoutMs);
    this.stmt = prepareStatements(this.db);
    const inline = options.file === ':memory:' || options.file === '' || options.writer === 'inline';
    this.writes = inline ? new InlineWrites(new BatchWriter(this.db)) : new WorkerWrites({ file: options.file, busyTimeoutMs });
  }

  /** Read-only snapshot of counters (tests and the bench use `commits`). */
  get stats(): Readonly<SqliteEventStoreStats> {
    return { ...this.counters };
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (this.closing) return Promise.reject(new Error('SqliteEventStore is closed: append rejected'));
    let serialized: SerializedEvent[];
    try {
      validateExpected(expected);
      serialized = events.map(serialize);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ streamId, events: serialized, expected, resolve, reject });
      this.scheduleFlush();
    });
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? NO_LIMIT;
    const from = options.fromRevision;
    if (options.direction === 'backwards') {
      const revision = from === undefined || from === 'end' ? END : from === 'start' ? 0 : from;
      return this.stmt.readStreamBackwards.all(streamId, revision, limit).map(toRecorded);
    }
    const revision = from === undefined || from === 'start' ? 0 : from === 'end' ? END : from;
    return this.stmt.readStreamForwards.all(streamId, revision, limit).map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? NO_LIMIT;
    const backwards = options.direction === 'backwards';
    const bound = backwards ? (options.before ?? END) : (options.after ?? 0);
    if (options.eventTypes || options.where) {
      if (options.eventTypes?.length === 0) return [];
      const types = options.eventTypes ?? [];
      const actor = options.where?.actor;
      const correlationId = options.where?.correlationId;
      const values = [...types, ...(actor === undefined ? [] : [actor]), ...(correlationId === undefined ? [] : [correlationId])];
      return this.filteredRead(backwards, types.length, actor !== undefined, correlationId !== undefined)
        .all(bound, ...values, limit)
        .map(toRecorded);
    }
    if (backwards) return this.stmt.readAllBackwards.all(bound, limit).map(toRecorded);
    return this.stmt.readAllForwards.all(bound, limit).map(toRecorded);
  }

  /** A filtered read of $all (by type, by metadata), prepared once per shape. */
  private filteredRead(backwards: boolean, types: number, byActor: boolean, byCorrelation: boolean): Database.Statement<unknown[], EventRow> {
    const key = `${backwards ? 'b' : 'f'}${types}${byActor ? 'a' : ''}${byCorrelation ? 'c' : ''}`;
    let statement = this.typedReads.get(key);
    if (!statement) {
      const conditions = [backwards ? 'position < ?' : 'position > ?'];
      if (types > 0) conditions.push(`type IN (${Array.from({ length: types }, () => '?').join(', ')})`);
      if (byActor) conditions.push("json_extract(metadata, '$.actor') = ?");
      if (byCorrelation) conditions.push("json_extract(metadata, '$.correlationId') = ?");
      statement = this.db.prepare<unknown[], EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE ${conditions.join(' AND ')} ORDER BY position ${backwards ? 'DESC' : 'ASC'} LIMIT ?`,
      );
      this.typedReads.set(key, statement);
    }
    return statement;
  }

  async headPosition(): Promise<number> {
    return this.head();
  }

  async readSealed(options: ReadSealedOptions): Promise<SealedEvent[]> {
    return this.stmt.readSealed.all(options.after, options.maxCount).map((row) => ({
      streamId: row.stream_id,
      revision: row.revision,
      position: row.position,
      eventId: row.event_id,
      type: row.type,
      data: row.data,
      metadata: row.metadata,
      seal: row.hash === null || row.chain === null ? null : { hash: row.hash, chain: row.chain },
    }));
  }

  subscribeToAll(options: SubscribeToAllOptions, handler: BatchHandler): Subscription {
    const maxBatchSize = options.maxBatchSize ?? 500;
    if (!Number.isInteger(options.fromPosition) || options.fromPosition < 0) {
      throw new Error(`subscribeToAll: fromPosition must be an integer >= 0, got ${options.fromPosition}`);
    }
    if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
      throw new Error(`subscribeToAll: maxBatchSize must be an integer >= 1, got ${maxBatchSize}`);
    }
    let stopped = this.closing !== null;
    let wake: () => void = () => undefined;

    const run = async (): Promise<void> => {
      let after = options.fromPosition;
      while (!stopped) {
        const page = this.readAfter(after, maxBatchSize);
        if (page.length > 0) {
          await handler(page);
          after = page[page.length - 1].position;
          // catching up on a long log: let I/O and timers in between pages (a handler
          // whose awaits all resolve at once would otherwise hold the event loop to the end)
          if (page.length === maxBatchSize) await new Promise<void>((resolve) => setImmediate(resolve));
          continue;
        }
        // Caught up: sleep until this instance commits, the poll timer fires
        // (another process may have written to the file) or stop() is called.
        // Registering happens in the same tick as the empty read, so no commit can slip between.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => wake(), this.pollIntervalMs);
          wake = () => {
            clearTimeout(timer);
            this.commitWaiters.delete(wake);
            resolve();
          };
          this.commitWaiters.add(wake);
        });
      }
    };

    const done = run();
    // The caller observes `done`; this only keeps an ignored handler failure from
    // crashing the process as an unhandled rejection.
    done.catch(() => undefined);
    const subscription: Subscription = {
      done,
      stop: async () => {
        stopped = true;
        wake();
        await done.catch(() => undefined);
      },
    };
    this.subscriptions.add(subscription);
    void done.catch(() => undefined).then(() => this.subscriptions.delete(subscription));
    return subscription;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // Pending appends were promised a result: commit them before closing.
      if (this.flushHandle) clearImmediate(this.flushHandle);
      this.flushHandle = null;
      while (this.committing || this.queue.length > 0) await (this.committing ?? this.flush());
      await Promise.all([...this.subscriptions].map((s) => s.stop()));
      await this.writes.close();
      this.db.close();
    })();
    return this.closing;
  }

  /**
   * Group commit: appends issued in the same turn of the event loop share one
   * transaction (one fsync), and those that arrive while a commit runs share
   * the next one, which starts as soon as it is done.
   */
  private scheduleFlush(): void {
    if (this.committing || this.flushHandle) return;
    this.flushHandle = setImmediate(() => void this.flush());
  }

  /** Commits every queued append in one transaction, then acknowledges each. */
  private flush(): Promise<void> {
    this.flushHandle = null;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return Promise.resolve();
    const committing = this.commit(batch).finally(() => {
      this.committing = null;
      if (this.queue.length > 0 && !this.closing) void this.flush();
    });
    this.committing = committing;
    return committing;
  }

  private async commit(batch: PendingAppend[]): Promise<void> {
    const recordedAt = new Date().toISOString();
    let outcomes: WriteOutcome[];
    try {
      outcomes = await this.writes.write(
        batch.map(({ streamId, events, expected }) => ({ streamId, events, expected })),
        recordedAt,
      );
    } catch (error) {
      // BEGIN/COMMIT failed (busy, I/O, disk full): nothing of the batch is durable.
      for (const append of batch) append.reject(error);
      return;
    }

    // Only now, after COMMIT returned (fsync done), are the appends acknowledged.
    this.counters.commits++;
    let written = 0;
    let acknowledged = 0;
    this.remember(batch, outcomes, recordedAt);
    outcomes.forEach((outcome, i) => {
      if (outcome.ok) {
        written += batch[i].events.length;
        acknowledged++;
        this.counters.appends++;
        batch[i].resolve(outcome.result);
      } else {
        batch[i].reject(refusalError(outcome.refusal));
      }
    });
    this.counters.events += written;
    this.onCommit?.(acknowledged, written);
    if (written > 0) this.notifyCommit();
  }

  /** Adds the committed events of a flush to the tail, in position order. */
  private remember(batch: PendingAppend[], outcomes: WriteOutcome[], recordedAt: string): void {
    const fresh: RecordedEvent[] = [];
    outcomes.forEach((outcome, i) => {
      if (!outcome.ok) return;
      const { streamId, events } = batch[i];
      events.forEach((event, k) => {
        fresh.push({
          streamId,
          type: event.type,
          revision: outcome.firstRevision + k,
          position: outcome.positions[k],
          data: JSON.parse(event.data) as JsonObject,
          metadata: JSON.parse(event.metadata) as EventMetadata,
          recordedAt,
        });
      });
    });
    if (fresh.length === 0) return;
    fresh.sort((a, b) => a.position - b.position);
    this.tail.push(...fresh);
    if (this.tail.length > this.tailCapacity) this.tail = this.tail.slice(this.tail.length - Math.floor(this.tailCapacity / 2));
  }

  /** Up to `max` events after `after`: from the tail when it holds them without a gap, else from the file. */
  private readAfter(after: number, max: number): RecordedEvent[] {
    const tail = this.tail;
    if (tail.length > 0 && after >= tail[0].position - 1 && after < tail[tail.length - 1].position) {
      let low = 0;
      let high = tail.length - 1;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (tail[middle].position <= after) low = middle + 1;
        else high = middle;
      }
      if (tail[low].position === after + 1) {
        const page: RecordedEvent[] = [];
        let expected = after + 1;
        for (let i = low; i < tail.length && page.length < max && tail[i].position === expected; i++, expected++) page.push(tail[i]);
        this.counters.servedFromMemory += page.length;
        return page;
      }
    }
    return this.stmt.readAllForwards.all(after, max).map(toRecorded);
  }

  private head(): number {
    return this.stmt.head.get()?.position ?? 0;
  }

  private notifyCommit(): void {
    const waiters = [...this.commitWaiters];
    this.commitWaiters.clear();
    for (const wake of waiters) wake();
  }
}

function prepareStatements(db: Database.Database) {
  return {
    head: db.prepare<[], { position: number | null }>('SELECT MAX(position) AS position FROM events'),
    readStreamForwards: db.prepare<[string, number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision ASC LIMIT ?`,
    ),
    readStreamBackwards: db.prepare<[string, number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
    ),
    readAllForwards: db.prepare<[number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position ASC LIMIT ?`,
    ),
    readSealed: db.prepare<[number, number], EventRow & { event_id: string; hash: string | null; chain: string | null }>(
      `SELECT ${COLUMNS}, event_id, hash, chain FROM events WHERE position > ? ORDER BY position ASC LIMIT ?`,
    ),
    readAllBackwards: db.prepare<[number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE position < ? ORDER BY position DESC LIMIT ?`,
    ),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

function validateExpected(expected: ExpectedRevision): void {
  if (expected === 'no_stream' || expected === 'stream_exists' || expected === 'any') return;
  if (typeof expected === 'number' && Number.isInteger(expected) && expected >= 0) return;
  throw new Error(`Invalid expected revision: ${String(expected)}`);
}

function serialize(event: NewEvent): SerializedEvent {
  return {
    eventId: event.metadata.eventId,
    type: event.type,
    data: JSON.stringify(event.data),
    metadata: JSON.stringify(event.metadata),
  };
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    streamId: row.stream_id,
    type: row.type,
    revision: row.revision,
    position: row.position,
    data: JSON.parse(row.data) as JsonObject,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    recordedAt: row.recorded_at,
  };
}

/** Where a group commit runs. */
interface Writes {
  write(batch: WriteRequest[], recordedAt: string): Promise<WriteOutcome[]>;
  close(): Promise<void>;
}

/** On the store's own connection (`:memory:`): the commit blocks the event loop for its fsync. */
class InlineWrites implements Writes {
  constructor(private readonly writer: BatchWriter) {}

  async write(batch: WriteRequest[], recordedAt: string): Promise<WriteOutcome[]> {
    return this.writer.write(batch, recordedAt);
  }

  async close(): Promise<void> {}
}

/**
 * On a worker thread with a connection of its own (sqlite-writer.worker.ts):
 * one batch at a time, answered after its COMMIT. A worker that dies fails
 * the batch in flight (not acknowledged, so not lost for anyone) and every
 * later write.
 */
class WorkerWrites implements Writes {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (outcomes: WriteOutcome[]) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  constructor(data: WriterData) {
    // built: the .js beside this file; from the sources (tests, start:dev): the .ts through ts-node
    const extension = extname(__filename);
    this.worker = new Worker(join(__dirname, `sqlite-writer.worker${extension}`), {
      workerData: data,
      execArgv: extension === '.ts' ? ['--require', 'ts-node/register/transpile-only'] : [],
    });
    // an idle writer keeps nobody's process alive; one with a commit in flight does (see write)
    this.worker.unref();
    this.worker.on('message', (reply: WriterReply) => {
      if (reply.type === 'closed') return;
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if (reply.type === 'written') waiter?.resolve(reply.outcomes);
      else waiter?.reject(Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {}));
    });
    this.worker.on('error', (error) => this.fail(error));
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', (code) => {
        this.fail(new Error(`SqliteEventStore writer thread exited (code ${code})`));
        resolve();
      }),
    );
  }

  write(batch: WriteRequest[], recordedAt: string): Promise<WriteOutcome[]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ type: 'write', id, batch, recordedAt } satisfies WriterRequest);
    });
  }

  async close(): Promise<void> {
    this.worker.ref();
    if (!this.failure) this.worker.postMessage({ type: 'close' } satisfies WriterRequest);
    await this.exited;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }
}
