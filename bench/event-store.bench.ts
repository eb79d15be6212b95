/**
 * Section 1: durable appends.
 *
 * SqliteEventStore under 64 concurrent writers (single-event appends, each
 * writer on its own stream with an exact expected revision, awaiting each
 * append before the next), against a bare better-sqlite3 loop on the same
 * schema with the same durability settings (WAL, synchronous=FULL) doing one
 * INSERT per transaction: what a store without group commit does.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA } from '../src/infrastructure/event-store/sqlite/sqlite-batch-writer';
import type { ExpectedRevision, NewEvent } from '../src/infrastructure/event-store/event-store.port';
import { NO_STREAM } from '../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { fixed, heading, int, log, makeTempDir, now, ratio, removeTempDir, secondsSince, timedProgress } from './util';

export interface AppendBenchOptions {
  writers: number;
  storeSeconds: number;
  bareSeconds: number;
  bareBatchSeconds: number;
  /** inserts per transaction of the optional second bare loop (context only) */
  bareBatchSize: number;
}

export interface AppendBenchResult {
  store: { events: number; seconds: number; eventsPerSecond: number; commits: number; eventsPerCommit: number; errors: number };
  bare: { events: number; seconds: number; eventsPerSecond: number };
  bareBatched: { batchSize: number; events: number; seconds: number; eventsPerSecond: number };
}

const NODE_ID = 'bench-node';

/** The kind of event a login writes: a small data object and the usual metadata. */
function benchEvent(writer: number, seq: number): NewEvent {
  const at = new Date().toISOString();
  return {
    type: 'UserLoggedIn',
    data: { user_id: `bench-writer-${writer}`, token_id: randomUUID(), method: 'password', at },
    metadata: {
      eventId: randomUUID(),
      correlationId: randomUUID(),
      causationId: null,
      actor: `bench-writer-${writer}`,
      nodeId: NODE_ID,
      occurredAt: at,
      schemaVersion: 1,
      seq,
    },
  };
}

async function storeAppends(file: string, options: AppendBenchOptions): Promise<AppendBenchResult['store']> {
  const store = new SqliteEventStore({ file });
  const commitsBefore = store.stats.commits;
  let stop = false;
  let events = 0;
  let errors = 0;
  let firstError: unknown = null;

  const writer = async (w: number): Promise<void> => {
    const streamId = `benchWriter-${w}-${randomUUID().slice(0, 8)}`;
    let expected: ExpectedRevision = NO_STREAM;
    let seq = 0;
    while (!stop) {
      try {
        const result = await store.append(streamId, [benchEvent(w, seq++)], expected);
        expected = result.nextExpectedRevision;
        events++;
      } catch (error) {
        errors++;
        firstError ??= error;
        if (errors > 100) stop = true;
      }
    }
  };

  const bar = timedProgress('store: 64 writers', options.storeSeconds);
  const start = now();
  const timer = setTimeout(() => (stop = true), options.storeSeconds * 1000);
  await Promise.all(Array.from({ length: options.writers }, (_, w) => writer(w)));
  clearTimeout(timer);
  const seconds = secondsSince(start);
  bar.stop();
  const commits = store.stats.commits - commitsBefore;
  await store.close();
  if (firstError) log(`  ! ${errors} append(s) failed; first: ${firstError instanceof Error ? firstError.message : String(firstError)}`);
  return {
    events,
    seconds,
    eventsPerSecond: events / seconds,
    commits,
    eventsPerCommit: commits > 0 ? events / commits : 0,
    errors,
  };
}

/**
 * The naive store: same table, same indexes, same row content (JSON serialised per
 * event, a fresh UUID per event), `perTransaction` INSERTs per BEGIN IMMEDIATE..COMMIT.
 */
function bareLoop(file: string, seconds: number, perTransaction: number, label: string): { events: number; seconds: number; eventsPerSecond: number } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(SCHEMA);
  const insert = db.prepare(
    `INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const streamId = `bare-${randomUUID().slice(0, 8)}`;
  let revision = 0;
  const tx = db.transaction((count: number) => {
    const recordedAt = new Date().toISOString();
    for (let i = 0; i < count; i++) {
      const event = benchEvent(0, revision);
      insert.run(streamId, revision++, event.metadata.eventId, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata), recordedAt);
    }
  });

  // The loop is synchronous (as better-sqlite3 is), so the progress bar is drawn from inside it.
  const bar = timedProgress(label, seconds);
  const start = now();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  let events = 0;
  let lastDraw = 0;
  while (process.hrtime.bigint() < deadline) {
    tx.immediate(perTransaction);
    events += perTransaction;
    if (events - lastDraw >= 500) {
      bar.update(Math.round(secondsSince(start) * 10) / 10);
      lastDraw = events;
    }
  }
  const elapsed = secondsSince(start);
  bar.stop();
  db.close();
  return { events, seconds: elapsed, eventsPerSecond: events / elapsed };
}

export async function runAppendBench(options: AppendBenchOptions): Promise<AppendBenchResult> {
  heading('1. Event-store appends (durable: WAL + synchronous=FULL)');
  const dir = makeTempDir('appends');
  try {
    const store = await storeAppends(join(dir, 'store.db'), options);
    log(
      `  SqliteEventStore, ${options.writers} writers x single-event appends, ${fixed(store.seconds, 1)} s: ` +
        `${int(store.events)} events, ${int(store.eventsPerSecond)} events/s`,
    );
    log(`    commits: ${int(store.commits)} (${int(store.commits / store.seconds)}/s), avg ${fixed(store.eventsPerCommit, 1)} events per commit`);

    const bare = bareLoop(join(dir, 'bare-1.db'), options.bareSeconds, 1, 'bare: 1 insert/tx');
    log(`  yardstick: bare better-sqlite3, 1 INSERT per transaction, ${fixed(bare.seconds, 1)} s: ${int(bare.eventsPerSecond)} events/s`);

    const batch = bareLoop(join(dir, `bare-${options.bareBatchSize}.db`), options.bareBatchSeconds, options.bareBatchSize, `bare: ${options.bareBatchSize} inserts/tx`);
    log(
      `  context:   bare better-sqlite3, ${options.bareBatchSize} INSERTs per transaction, ${fixed(batch.seconds, 1)} s: ` +
        `${int(batch.eventsPerSecond)} events/s`,
    );
    log(`  ratio store / bare(1 per tx): ${ratio(store.eventsPerSecond, bare.eventsPerSecond)}` +
      `   (store / bare(${options.bareBatchSize} per tx): ${ratio(store.eventsPerSecond, batch.eventsPerSecond)})`);
    return { store, bare, bareBatched: { batchSize: options.bareBatchSize, ...batch } };
  } finally {
    removeTempDir(dir);
  }
}
