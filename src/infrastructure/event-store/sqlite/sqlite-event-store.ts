import Database from 'better-sqlite3';
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
  WrongExpectedRevisionError,
} from '../event-store.port';

export interface SqliteEventStoreOptions {
  /** database file path, or ':memory:' */
  file: string;
  /** how often a caught-up subscription re-reads, so writes of other processes are seen too */
  pollIntervalMs?: number;
  /** how long a write waits for another process's write lock before failing */
  busyTimeoutMs?: number;
  /** how many of this process's latest committed events subscriptions can take from memory (default 10,000) */
  tailCapacity?: number;
}

/** Raised when an event's metadata.eventId is already stored. */
export class DuplicateEventIdError extends Error {
  constructor(readonly eventId: string) {
    super(`Duplicate eventId ${eventId}: an event with this id is already stored`);
    this.name = 'DuplicateEventIdError';
  }
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

/** An event serialised at append() time, so later mutation by the caller cannot change it. */
interface SerializedEvent {
  eventId: string;
  type: string;
  data: string;
  metadata: string;
}

interface PendingAppend {
  streamId: string;
  events: SerializedEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; result: AppendResult; positions: number[]; firstRevision: number } | { ok: false; error: unknown };

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id   TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    event_id    TEXT    NOT NULL UNIQUE,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    UNIQUE (stream_id, revision)
  );
`;

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

  constructor(options: SqliteEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.tailCapacity = options.tailCapacity ?? 10_000;
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.db = new Database(options.file, { timeout: busyTimeoutMs });
    this.db.pragma('journal_mode = WAL');
    // FULL: the WAL is fsynced on every COMMIT, so an acknowledged append survives a crash.
    this.db.pragma('synchronous = FULL');
    this.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    this.db.exec(SCHEMA);
    this.stmt = prepareStatements(this.db);
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
      // Appends issued in the same turn of the event loop share one transaction (one fsync).
      this.flushHandle ??= setImmediate(() => this.flush());
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
    if (options.eventTypes) {
      if (options.eventTypes.length === 0) return [];
      return this.typedRead(backwards, options.eventTypes.length)
        .all(bound, ...options.eventTypes, limit)
        .map(toRecorded);
    }
    if (backwards) return this.stmt.readAllBackwards.all(bound, limit).map(toRecorded);
    return this.stmt.readAllForwards.all(bound, limit).map(toRecorded);
  }

  /** A read of $all filtered by type, prepared once per direction and number of types. */
  private typedRead(backwards: boolean, types: number): Database.Statement<unknown[], EventRow> {
    const key = `${backwards ? 'b' : 'f'}${types}`;
    let statement = this.typedReads.get(key);
    if (!statement) {
      const placeholders = Array.from({ length: types }, () => '?').join(', ');
      statement = this.db.prepare<unknown[], EventRow>(
        backwards
          ? `SELECT ${COLUMNS} FROM events WHERE position < ? AND type IN (${placeholders}) ORDER BY position DESC LIMIT ?`
          : `SELECT ${COLUMNS} FROM events WHERE position > ? AND type IN (${placeholders}) ORDER BY position ASC LIMIT ?`,
      );
      this.typedReads.set(key, statement);
    }
    return statement;
  }

  async headPosition(): Promise<number> {
    return this.head();
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
      this.flush();
      await Promise.all([...this.subscriptions].map((s) => s.stop()));
      this.db.close();
    })();
    return this.closing;
  }

  /** Runs every queued append in one transaction, each inside its own savepoint. */
  private flush(): void {
    this.flushHandle = null;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;

    const recordedAt = new Date().toISOString();
    const outcomes: Outcome[] = [];
    try {
      this.stmt.begin.run();
      for (const append of batch) outcomes.push(this.applyOne(append, recordedAt));
      this.stmt.commit.run();
    } catch (error) {
      // BEGIN/COMMIT failed (busy, I/O, disk full): nothing of the batch is durable.
      try {
        if (this.db.inTransaction) this.stmt.rollback.run();
      } catch {
        // the connection is unusable; the appends are rejected below either way
      }
      for (const append of batch) append.reject(error);
      return;
    }

    // Only now, after COMMIT returned (fsync done), are the appends acknowledged.
    this.counters.commits++;
    let written = 0;
    this.remember(batch, outcomes, recordedAt);
    outcomes.forEach((outcome, i) => {
      if (outcome.ok) {
        written += batch[i].events.length;
        this.counters.appends++;
        batch[i].resolve(outcome.result);
      } else {
        batch[i].reject(outcome.error);
      }
    });
    this.counters.events += written;
    if (written > 0) this.notifyCommit();
  }

  /** A failing append rolls back to its savepoint and leaves the rest of the batch intact. */
  /**
   * An append of one event needs no savepoint: its one INSERT is atomic, and
   * a refusal (wrong revision, duplicate id) happens before or in it, leaving
   * nothing behind. Several events get a savepoint, so a failure undoes them all.
   */
  private applyOne(append: PendingAppend, recordedAt: string): Outcome {
    if (append.events.length > 1) return this.applyInSavepoint(append, recordedAt);
    try {
      const { result, positions, firstRevision } = this.applyAppend(append, recordedAt);
      return { ok: true, result, positions, firstRevision };
    } catch (error) {
      return { ok: false, error };
    }
  }

  private applyInSavepoint(append: PendingAppend, recordedAt: string): Outcome {
    this.stmt.savepoint.run();
    try {
      const { result, positions, firstRevision } = this.applyAppend(append, recordedAt);
      this.stmt.release.run();
      return { ok: true, result, positions, firstRevision };
    } catch (error) {
      // If SQLite already aborted the whole transaction these throw, and the batch is rejected.
      this.stmt.rollbackTo.run();
      this.stmt.release.run();
      return { ok: false, error };
    }
  }

  /** Reads inside the open transaction see earlier appends of the same batch. */
  private applyAppend(
    { streamId, events, expected }: PendingAppend,
    recordedAt: string,
  ): { result: AppendResult; positions: number[]; firstRevision: number } {
    const current = this.stmt.streamRevision.get(streamId)?.revision ?? null;
    checkExpected(streamId, expected, current);
    let revision = current ?? -1;
    const firstRevision = revision + 1;
    if (events.length === 0) return { result: { nextExpectedRevision: revision, position: this.head() }, positions: [], firstRevision };

    let position = 0;
    const positions: number[] = [];
    for (const event of events) {
      revision++;
      try {
        const info = this.stmt.insert.run(
          streamId,
          revision,
          event.eventId,
          event.type,
          event.data,
          event.metadata,
          recordedAt,
        );
        position = Number(info.lastInsertRowid);
        positions.push(position);
      } catch (error) {
        if (isUniqueViolation(error, 'events.event_id')) throw new DuplicateEventIdError(event.eventId);
        throw error;
      }
    }
    return { result: { nextExpectedRevision: revision, position }, positions, firstRevision };
  }

  /** Adds the committed events of a flush to the tail, in position order. */
  private remember(batch: PendingAppend[], outcomes: Outcome[], recordedAt: string): void {
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
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT append_one'),
    release: db.prepare('RELEASE append_one'),
    rollbackTo: db.prepare('ROLLBACK TO append_one'),
    insert: db.prepare<[string, number, string, string, string, string, string]>(
      `INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    streamRevision: db.prepare<[string], { revision: number | null }>(
      'SELECT MAX(revision) AS revision FROM events WHERE stream_id = ?',
    ),
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

function checkExpected(streamId: string, expected: ExpectedRevision, current: number | null): void {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === null) ||
    (expected === 'stream_exists' && current !== null) ||
    expected === current;
  if (!ok) throw new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');
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

function isUniqueViolation(error: unknown, column: string): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === 'SQLITE_CONSTRAINT_UNIQUE' && (e.message ?? '').includes(column);
}
