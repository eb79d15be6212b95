import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewEvent } from '../event-store.port';
import { chainHash, eventHash, verifyLog } from '../hash-chain';
import { SqliteEventStore } from './sqlite-event-store';

/** The tamper evidence of the SQLite file: edits made with the service stopped, straight in the file. */
describe('SqliteEventStore seals', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-seals-'));
    file = join(dir, 'events.db');
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes `streams` streams of `perStream` events (one append each), closes the store. */
  async function givenLog(streams: string[], perStream: number): Promise<void> {
    const store = new SqliteEventStore({ file });
    for (let revision = 0; revision < perStream; revision++) {
      await Promise.all(streams.map((stream) => store.append(stream, [event({ stream, revision, text: 'hello' })], revision === 0 ? 'no_stream' : revision - 1)));
    }
    await store.close();
  }

  /** Opens the file, lets `edit` change it as an intruder would, closes it. */
  function tamper(edit: (db: Database.Database) => void): void {
    const db = new Database(file);
    edit(db);
    db.close();
  }

  async function verify() {
    const store = new SqliteEventStore({ file });
    try {
      return await verifyLog(store, { pageSize: 4 });
    } finally {
      await store.close();
    }
  }

  function rowOf(stream: string, revision: number): { position: number; event_id: string; data: string } {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare<[string, number], { position: number; event_id: string; data: string }>('SELECT position, event_id, data FROM events WHERE stream_id = ? AND revision = ?').get(stream, revision)!;
    } finally {
      db.close();
    }
  }

  it('given an untouched log, when verified, then it holds from its first event and reports its head', async () => {
    await givenLog(['a-1', 'b-1'], 3);

    const verification = await verify();

    expect(verification).toMatchObject({ ok: true, checked: 6, unsealed: 0, sealed_from: 1, head: { position: 6 }, broken: null });
  });

  it('given one byte of an event\'s data flipped in the file, when verified, then that event is named', async () => {
    await givenLog(['a-1', 'b-1'], 3);
    const target = rowOf('b-1', 1);
    const flipped = Buffer.from(target.data, 'utf8');
    flipped[flipped.indexOf('hello')] ^= 0x01;
    tamper((db) => db.prepare('UPDATE events SET data = ? WHERE position = ?').run(flipped.toString('utf8'), target.position));

    const verification = await verify();

    expect(verification.ok).toBe(false);
    expect(verification.broken).toMatchObject({ stream: 'b-1', revision: 1, position: target.position, event_id: target.event_id, reason: 'hash_mismatch' });
  });

  it('given a row deleted from the middle of a stream and the running hash recomputed after it, when verified, then the next event of that stream is named', async () => {
    await givenLog(['a-1', 'b-1'], 3);
    const deleted = rowOf('a-1', 1);
    tamper((db) => {
      db.prepare('DELETE FROM events WHERE position = ?').run(deleted.position);
      let chain = db.prepare<[number], { chain: string }>('SELECT chain FROM events WHERE position < ? ORDER BY position DESC LIMIT 1').get(deleted.position)!.chain;
      for (const row of db.prepare<[number], { position: number; hash: string }>('SELECT position, hash FROM events WHERE position > ? ORDER BY position').all(deleted.position)) {
        chain = chainHash(chain, row.hash);
        db.prepare('UPDATE events SET chain = ? WHERE position = ?').run(chain, row.position);
      }
    });

    const verification = await verify();

    expect(verification.broken).toMatchObject({ stream: 'a-1', revision: 2, reason: 'revision_gap' });
  });

  it('given a row deleted, when verified, then the running hash breaks at the next event of the log', async () => {
    await givenLog(['a-1', 'b-1'], 3);
    const deleted = rowOf('a-1', 2);
    tamper((db) => db.prepare('DELETE FROM events WHERE position = ?').run(deleted.position));

    const verification = await verify();

    expect(verification.broken).toMatchObject({ stream: 'b-1', revision: 2, position: deleted.position + 1, reason: 'chain_mismatch' });
  });

  it('given a row re-hashed by an intruder who knows the canonical form, when verified, then the running hash of the next event gives it away', async () => {
    await givenLog(['a-1'], 3);
    const target = rowOf('a-1', 1);
    tamper((db) => {
      const row = db.prepare<[number], { metadata: string; type: string }>('SELECT metadata, type FROM events WHERE position = ?').get(target.position)!;
      const prev = db.prepare<[number], { hash: string; chain: string }>('SELECT hash, chain FROM events WHERE position = ?').get(target.position - 1)!;
      const data = target.data.replace('hello', 'HELLO');
      const hash = eventHash('a-1', 1, row.type, data, row.metadata, prev.hash);
      db.prepare('UPDATE events SET data = ?, hash = ?, chain = ? WHERE position = ?').run(data, hash, chainHash(prev.chain, hash), target.position);
    });

    const verification = await verify();

    expect(verification.broken).toMatchObject({ stream: 'a-1', revision: 2, reason: 'hash_mismatch' });
  });

  it('given a seal erased after sealing began, when verified, then that event is named as unsealed', async () => {
    await givenLog(['a-1'], 3);
    const target = rowOf('a-1', 2);
    tamper((db) => db.prepare('UPDATE events SET hash = NULL, chain = NULL WHERE position = ?').run(target.position));

    const verification = await verify();

    expect(verification.broken).toMatchObject({ position: target.position, reason: 'missing_seal' });
  });

  it('given a file written before seals existed, when opened and appended to, then verification starts at the first sealed event and counts the others', async () => {
    const legacy = new Database(file);
    legacy.exec(`CREATE TABLE events (
      position INTEGER PRIMARY KEY AUTOINCREMENT, stream_id TEXT NOT NULL, revision INTEGER NOT NULL, event_id TEXT NOT NULL UNIQUE,
      type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at TEXT NOT NULL, UNIQUE (stream_id, revision))`);
    const insert = legacy.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (let revision = 0; revision < 2; revision++) {
      const e = event({ revision });
      insert.run('old-1', revision, e.metadata.eventId, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata), new Date().toISOString());
    }
    legacy.close();
    const store = new SqliteEventStore({ file });
    await store.append('old-1', [event({ revision: 2 })], 1);
    await store.append('new-1', [event({ revision: 0 })], 'no_stream');
    await store.close();

    const verification = await verify();

    expect(verification).toMatchObject({ ok: true, checked: 4, unsealed: 2, sealed_from: 3, broken: null });
  });
});

function event(data: Record<string, unknown>): NewEvent {
  return {
    type: 'ThingHappened',
    data,
    metadata: {
      eventId: randomUUID(),
      correlationId: randomUUID(),
      causationId: null,
      actor: 'user-1',
      nodeId: 'node-test',
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}
