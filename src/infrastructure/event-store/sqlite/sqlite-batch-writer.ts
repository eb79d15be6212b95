/**
 * The write half of the SQLite event store: one group commit, a batch of
 * appends in one transaction, each checked against its expected revision.
 * It runs on a connection of its own in a worker thread (file-backed stores:
 * the COMMIT's fsync then never blocks the event loop) or on the store's
 * connection (`:memory:`, which another thread cannot open). Outcomes are
 * plain data, so they cross the thread boundary as they are.
 */
import Database from 'better-sqlite3';
import { type AppendResult, type ExpectedRevision, WrongExpectedRevisionError } from '../event-store.port';
import { sealOf } from '../hash-chain';

export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id   TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    event_id    TEXT    NOT NULL UNIQUE,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    hash        TEXT,
    chain       TEXT,
    UNIQUE (stream_id, revision)
  );
`;

/**
 * The seal columns (hash-chain.ts) arrived after the first release: a file
 * created before them gains them here, its existing rows stay unsealed
 * (NULL), and verification starts at the first sealed event and says so.
 */
function addSealColumns(db: Database.Database): void {
  const columns = new Set(db.prepare<[], { name: string }>('PRAGMA table_info(events)').all().map((c) => c.name));
  for (const column of ['hash', 'chain']) {
    if (columns.has(column)) continue;
    try {
      db.exec(`ALTER TABLE events ADD COLUMN ${column} TEXT`);
    } catch (error) {
      // another connection added it first
      if (!/duplicate column/i.test((error as Error).message)) throw error;
    }
  }
}

/** Opens an event database as every connection to it must be set up. */
export function openEventDatabase(file: string, busyTimeoutMs: number): Database.Database {
  const db = new Database(file, { timeout: busyTimeoutMs });
  db.pragma('journal_mode = WAL');
  // FULL: the WAL is fsynced on every COMMIT, so an acknowledged append survives a crash.
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.exec(SCHEMA);
  addSealColumns(db);
  return db;
}

/** An event serialised at append() time, so later mutation by the caller cannot change it. */
export interface SerializedEvent {
  eventId: string;
  type: string;
  data: string;
  metadata: string;
}

export interface WriteRequest {
  streamId: string;
  events: SerializedEvent[];
  expected: ExpectedRevision;
}

/** Why an append was refused, as data. */
export type WriteRefusal =
  | { kind: 'wrongRevision'; streamId: string; expected: ExpectedRevision; actual: number | 'no_stream' }
  | { kind: 'duplicateEventId'; eventId: string }
  | { kind: 'failed'; message: string; code?: string };

export type WriteOutcome = { ok: true; result: AppendResult; positions: number[]; firstRevision: number } | { ok: false; refusal: WriteRefusal };

/** Raised when an event's metadata.eventId is already stored. */
export class DuplicateEventIdError extends Error {
  constructor(readonly eventId: string) {
    super(`Duplicate eventId ${eventId}: an event with this id is already stored`);
    this.name = 'DuplicateEventIdError';
  }
}

/** The error a refusal stands for, on the thread that reports it to the caller. */
export function refusalError(refusal: WriteRefusal): Error {
  switch (refusal.kind) {
    case 'wrongRevision':
      return new WrongExpectedRevisionError(refusal.streamId, refusal.expected, refusal.actual);
    case 'duplicateEventId':
      return new DuplicateEventIdError(refusal.eventId);
    case 'failed':
      return Object.assign(new Error(refusal.message), refusal.code ? { code: refusal.code } : {});
  }
}

function refusalOf(error: unknown): WriteRefusal {
  if (error instanceof WrongExpectedRevisionError) return { kind: 'wrongRevision', streamId: error.streamId, expected: error.expected, actual: error.actual };
  if (error instanceof DuplicateEventIdError) return { kind: 'duplicateEventId', eventId: error.eventId };
  const e = error as { message?: string; code?: string };
  return { kind: 'failed', message: e.message ?? String(error), code: e.code };
}

export class BatchWriter {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT append_one'),
      release: db.prepare('RELEASE append_one'),
      rollbackTo: db.prepare('ROLLBACK TO append_one'),
      insert: db.prepare<[string, number, string, string, string, string, string, string, string]>(
        `INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at, hash, chain)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      streamTip: db.prepare<[string], { revision: number; hash: string | null }>(
        'SELECT revision, hash FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1',
      ),
      head: db.prepare<[], { position: number | null }>('SELECT MAX(position) AS position FROM events'),
      headChain: db.prepare<[], { chain: string | null }>('SELECT chain FROM events ORDER BY position DESC LIMIT 1'),
    };
  }

  /**
   * The running hash of the log's last event, read inside the transaction
   * (BEGIN IMMEDIATE holds the write lock, so no other connection or process
   * commits between this read and our COMMIT): the chain follows commit order.
   */
  private chain: string | null = null;

  /**
   * Runs the batch in one transaction, each append on its own (a refused one
   * leaves the others intact), and returns once COMMIT did (fsync done).
   * Throws when BEGIN or COMMIT fails: then nothing of the batch is durable.
   */
  write(batch: readonly WriteRequest[], recordedAt: string): WriteOutcome[] {
    const outcomes: WriteOutcome[] = [];
    try {
      this.stmt.begin.run();
      this.chain = this.stmt.headChain.get()?.chain ?? null;
      for (const append of batch) outcomes.push(this.applyOne(append, recordedAt));
      this.stmt.commit.run();
      return outcomes;
    } catch (error) {
      try {
        if (this.db.inTransaction) this.stmt.rollback.run();
      } catch {
        // the connection is unusable; the batch is refused either way
      }
      throw error;
    }
  }

  /**
   * An append of one event needs no savepoint: its one INSERT is atomic, and
   * a refusal (wrong revision, duplicate id) happens before or in it, leaving
   * nothing behind. Several events get a savepoint, so a failure undoes them all.
   */
  private applyOne(append: WriteRequest, recordedAt: string): WriteOutcome {
    if (append.events.length > 1) return this.applyInSavepoint(append, recordedAt);
    try {
      return { ok: true, ...this.applyAppend(append, recordedAt) };
    } catch (error) {
      return { ok: false, refusal: refusalOf(error) };
    }
  }

  private applyInSavepoint(append: WriteRequest, recordedAt: string): WriteOutcome {
    this.stmt.savepoint.run();
    const chainBefore = this.chain;
    try {
      const applied = this.applyAppend(append, recordedAt);
      this.stmt.release.run();
      return { ok: true, ...applied };
    } catch (error) {
      // If SQLite already aborted the whole transaction these throw, and the batch is refused.
      this.chain = chainBefore;
      this.stmt.rollbackTo.run();
      this.stmt.release.run();
      return { ok: false, refusal: refusalOf(error) };
    }
  }

  /** Reads inside the open transaction see earlier appends of the same batch. */
  private applyAppend({ streamId, events, expected }: WriteRequest, recordedAt: string): { result: AppendResult; positions: number[]; firstRevision: number } {
    const tip = this.stmt.streamTip.get(streamId);
    const current = tip?.revision ?? null;
    checkExpected(streamId, expected, current);
    let prevHash = tip?.hash ?? null;
    let revision = current ?? -1;
    const firstRevision = revision + 1;
    if (events.length === 0) {
      return { result: { nextExpectedRevision: revision, position: this.stmt.head.get()?.position ?? 0 }, positions: [], firstRevision };
    }
    let position = 0;
    const positions: number[] = [];
    for (const event of events) {
      revision++;
      const seal = sealOf({ streamId, revision, type: event.type, data: event.data, metadata: event.metadata }, prevHash, this.chain);
      try {
        const info = this.stmt.insert.run(streamId, revision, event.eventId, event.type, event.data, event.metadata, recordedAt, seal.hash, seal.chain);
        position = Number(info.lastInsertRowid);
        prevHash = seal.hash;
        this.chain = seal.chain;
        positions.push(position);
      } catch (error) {
        if (isUniqueViolation(error, 'events.event_id')) throw new DuplicateEventIdError(event.eventId);
        throw error;
      }
    }
    return { result: { nextExpectedRevision: revision, position }, positions, firstRevision };
  }
}

function checkExpected(streamId: string, expected: ExpectedRevision, current: number | null): void {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === null) ||
    (expected === 'stream_exists' && current !== null) ||
    expected === current;
  if (!ok) throw new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');
}

function isUniqueViolation(error: unknown, column: string): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === 'SQLITE_CONSTRAINT_UNIQUE' && (e.message ?? '').includes(column);
}
