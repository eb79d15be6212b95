/**
 * The sync queue of a regional node (social-routes §19, issue 17 item 2):
 * the writes its clients made, on their way to central. A regional node
 * cannot append to its event store (it holds central's log, byte for byte),
 * so its queue is kept apart, in `outbox.db` under DATA_DIR, beside the
 * replication checkpoint: node-local state, as on either stack.
 *
 * The queue's rules are the sync queue's own: the same pure decider
 * (aggregates/federation/sync-queue.ts: batches of due items, retries,
 * dead at the 5th failure, the 10,000 cap) run state-stored instead of
 * event-sourced. Each operation opens an immediate transaction, reads the
 * live items, decides, folds its events with `evolve` and writes the
 * difference, so several processes on one DATA_DIR share one queue (an item
 * is marked in progress by one of them only). A finished item (completed or
 * dead) leaves the file: its payload, which holds the client's credential
 * and body, is overwritten on disk (`secure_delete`); only counters remain.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type SyncItem, type SyncQueueCommand, type SyncQueueEvent, type SyncQueueState, syncQueueDecider } from '../../aggregates/federation/sync-queue';

export const OUTBOX_FILE = 'outbox.db';

type Counter = 'completed' | 'dead' | 'dropped';
const COUNTERS: readonly Counter[] = ['completed', 'dead', 'dropped'];

export class RegionalOutbox {
  private readonly db: Database.Database;

  constructor(dataDir: string | null) {
    if (dataDir !== null) mkdirSync(dataDir, { recursive: true });
    this.db = new Database(dataDir === null ? ':memory:' : join(dataDir, OUTBOX_FILE));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('secure_delete = ON');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS items (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, item TEXT NOT NULL);
       CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;`,
    );
  }

  /** Runs one command of the sync queue's decider on the stored state; gives its events and the state after them. */
  execute(command: SyncQueueCommand, now: Date): { events: SyncQueueEvent[]; state: SyncQueueState } {
    return this.db
      .transaction(() => {
        const before = this.read();
        const events = syncQueueDecider.decide(command, before, now);
        const after = events.reduce(syncQueueDecider.evolve, before);
        this.write(before, after);
        return { events, state: after };
      })
      .immediate();
  }

  /** The queue as stored now: its live items, oldest first, and the counts of the finished ones. */
  state(): SyncQueueState {
    return this.read();
  }

  close(): void {
    this.db.close();
  }

  private read(): SyncQueueState {
    const items = new Map<string, SyncItem>();
    for (const row of this.db.prepare('SELECT item FROM items ORDER BY seq').all() as { item: string }[]) {
      const item = JSON.parse(row.item) as SyncItem;
      items.set(item.id, item);
    }
    const counts = new Map((this.db.prepare('SELECT name, value FROM counters').all() as { name: string; value: number }[]).map((r) => [r.name, r.value]));
    return { items, completed: counts.get('completed') ?? 0, dead: counts.get('dead') ?? 0, dropped: counts.get('dropped') ?? 0 };
  }

  private write(before: SyncQueueState, after: SyncQueueState): void {
    const remove = this.db.prepare('DELETE FROM items WHERE id = ?');
    const insert = this.db.prepare('INSERT INTO items (id, item) VALUES (?, ?)');
    const update = this.db.prepare('UPDATE items SET item = ? WHERE id = ?');
    for (const id of before.items.keys()) if (!after.items.has(id)) remove.run(id);
    for (const [id, item] of after.items) {
      const previous = before.items.get(id);
      if (previous === undefined) insert.run(id, JSON.stringify(item));
      else if (previous !== item) update.run(JSON.stringify(item), id);
    }
    const upsert = this.db.prepare('INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value');
    for (const name of COUNTERS) if (after[name] !== before[name]) upsert.run(name, after[name]);
  }
}
