import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NewEvent, RecordedEvent, WrongExpectedRevisionError } from '../event-store.port';
import { DuplicateEventIdError, SqliteEventStore } from './sqlite-event-store';
import { eventually } from '../../../../test/support/eventually';

// Behaviour specific to the SQLite adapter; the port's behaviour is in test/contract.
describe('SqliteEventStore', () => {
  let dir: string;
  let file: string;
  const stores: SqliteEventStore[] = [];

  function open(options: { pollIntervalMs?: number; busyTimeoutMs?: number; tailCapacity?: number } = {}): SqliteEventStore {
    const store = new SqliteEventStore({ file, ...options });
    stores.push(store);
    return store;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-event-store-'));
    file = join(dir, 'events.db');
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  describe('group commit', () => {
    it('given 200 concurrent appends, when they are flushed, then they share far fewer than 200 commits', async () => {
      const store = open();
      const before = store.stats.commits;

      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => store.append(`groupCommit-${i}`, [event()], 'no_stream')),
      );

      const commits = store.stats.commits - before;
      expect(new Set(results.map((r) => r.position)).size).toBe(200);
      expect(commits).toBeLessThanOrEqual(5);
      expect(store.stats.events).toBe(200);
    });

    it('given appends to one stream in one batch, when checked, then each sees the earlier ones of the batch', async () => {
      const store = open();

      const [first, second, third] = await Promise.allSettled([
        store.append('batch-1', [event()], 'no_stream'),
        store.append('batch-1', [event()], 'no_stream'),
        store.append('batch-1', [event(), event()], 0),
      ]);

      expect(first).toMatchObject({ status: 'fulfilled', value: { nextExpectedRevision: 0 } });
      expect(second).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedRevisionError) });
      expect(third).toMatchObject({ status: 'fulfilled', value: { nextExpectedRevision: 2 } });
      expect(store.stats.commits).toBe(1);
    });

    it('given a duplicate eventId in a batch, when flushed, then only that append fails', async () => {
      const store = open();
      const duplicate = event();
      await store.append('dup-1', [duplicate], 'no_stream');

      const [other, failing, after] = await Promise.allSettled([
        store.append('dup-2', [event()], 'no_stream'),
        store.append('dup-3', [event(), duplicate], 'no_stream'),
        store.append('dup-4', [event()], 'no_stream'),
      ]);

      expect(other.status).toBe('fulfilled');
      expect(failing).toMatchObject({ status: 'rejected', reason: expect.any(DuplicateEventIdError) });
      expect(after.status).toBe('fulfilled');
      // the savepoint undid the first event of the failing append too
      expect(await store.readStream('dup-3')).toEqual([]);
    });

    it('given the file is locked by another writer, when the batch cannot begin, then every append of it rejects', async () => {
      const store = open({ busyTimeoutMs: 20 });
      await store.append('locked-0', [event()], 'no_stream');
      const blocker = new Database(file);
      blocker.exec('BEGIN IMMEDIATE');

      const results = await Promise.allSettled([
        store.append('locked-1', [event()], 'no_stream'),
        store.append('locked-2', [event()], 'no_stream'),
      ]);
      blocker.exec('ROLLBACK');
      blocker.close();

      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect((await store.append('locked-1', [event()], 'no_stream')).nextExpectedRevision).toBe(0);
    });
  });

  describe('appends', () => {
    it('given a new file, when appending, then positions start at 1', async () => {
      const store = open();

      const result = await store.append('first-1', [event(), event()], 'no_stream');

      expect(result).toEqual({ nextExpectedRevision: 1, position: 2 });
      expect(await store.headPosition()).toBe(2);
    });

    it('given an empty events array, when appending, then the expectation is checked and nothing is written', async () => {
      const store = open();
      await store.append('empty-1', [event()], 'no_stream');

      const result = await store.append('empty-1', [], 0);

      expect(result).toEqual({ nextExpectedRevision: 0, position: 1 });
      await expect(store.append('empty-1', [], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect(await store.headPosition()).toBe(1);
    });

    it('given an in-memory database, when appending and reading, then it works without a file', async () => {
      const store = new SqliteEventStore({ file: ':memory:' });
      stores.push(store);

      await store.append('memory-1', [event()], 'no_stream');

      expect(await store.readStream('memory-1')).toHaveLength(1);
    });
  });

  describe('close', () => {
    it('given events, when the store is closed and reopened, then they are still there', async () => {
      const first = open();
      await first.append('reopen-1', [event({ n: 1 }), event({ n: 2 })], 'no_stream');
      await first.close();

      const events = await open().readStream('reopen-1');

      expect(events.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    });

    it('given an append not yet flushed, when closing, then it is committed before the database closes', async () => {
      const store = open();
      const pending = store.append('pending-1', [event()], 'no_stream');

      await store.close();

      await expect(pending).resolves.toEqual({ nextExpectedRevision: 0, position: 1 });
      expect(await open().readStream('pending-1')).toHaveLength(1);
    });

    it('given a closed store, when appending, then it rejects with a clear error', async () => {
      const store = open();
      await store.close();

      await expect(store.append('closed-1', [event()], 'no_stream')).rejects.toThrow(/closed/);
    });

    it('given a running subscription, when closing, then the subscription ends', async () => {
      const store = open();
      const subscription = store.subscribeToAll({ fromPosition: 0 }, async () => undefined);

      await store.close();

      await expect(subscription.done).resolves.toBeUndefined();
    });
  });

  describe('subscriptions', () => {
    it('given a caught-up subscription and a long poll interval, when appending, then the commit wakes it at once', async () => {
      const store = open({ pollIntervalMs: 60_000 });
      const received: RecordedEvent[] = [];
      store.subscribeToAll({ fromPosition: 0 }, async (events) => {
        received.push(...events);
      });
      await store.append('live-0', [event()], 'no_stream');
      await eventually('the first event', () => received.length === 1, { timeoutMs: 1000 });

      await store.append('live-1', [event()], 'no_stream');

      await eventually('the second event, long before the next poll', () => received.length === 2, { timeoutMs: 1000 });
    });

    it('given more events than maxBatchSize, when catching up, then pages are bounded and contiguous', async () => {
      const store = open();
      await store.append('pages-1', Array.from({ length: 7 }, () => event()), 'no_stream');
      const pages: number[][] = [];

      store.subscribeToAll({ fromPosition: 0, maxBatchSize: 3 }, async (events) => {
        pages.push(events.map((e) => e.position));
      });

      await eventually('the subscription to deliver', () => pages.flat().length === 7);
      expect(pages).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    });
  });

  describe('the committed tail in memory', () => {
    it('given a caught-up subscription, when this instance appends, then the events are handed over from memory, in order', async () => {
      const store = open({ pollIntervalMs: 60_000 });
      const received: RecordedEvent[] = [];
      store.subscribeToAll({ fromPosition: 0 }, async (events) => {
        received.push(...events);
      });
      await Promise.all([store.append('tail-1', [event({ n: 1 }), event({ n: 2 })], 'no_stream'), store.append('tail-2', [event({ n: 3 })], 'no_stream')]);

      await eventually('the subscription to deliver', () => received.length === 3, { timeoutMs: 1000 });
      expect(received.map((e) => [e.streamId, e.revision, e.position, e.data.n])).toEqual([
        ['tail-1', 0, 1, 1],
        ['tail-1', 1, 2, 2],
        ['tail-2', 0, 3, 3],
      ]);
      expect(store.stats.servedFromMemory).toBe(3);
    });

    it('given an append mutated by its caller afterwards, when delivered from memory, then the stored version is delivered', async () => {
      const store = open({ pollIntervalMs: 60_000 });
      const received: RecordedEvent[] = [];
      store.subscribeToAll({ fromPosition: 0 }, async (events) => {
        received.push(...events);
      });
      const appended = event({ n: 1 });
      const appending = store.append('tail-1', [appended], 'no_stream');
      appended.data.n = 99;
      await appending;

      await eventually('the subscription to deliver', () => received.length === 1, { timeoutMs: 1000 });
      expect(received[0].data).toEqual({ n: 1 });
    });

    it('given another instance wrote between two appends of this one, when subscribed, then the gap is read from the file and nothing is skipped', async () => {
      const mine = open({ pollIntervalMs: 20 });
      const other = open();
      await mine.append('tail-mine', [event()], 'no_stream');
      await other.append('tail-other', [event()], 'no_stream');
      await mine.append('tail-mine', [event()], 0);
      const received: RecordedEvent[] = [];
      mine.subscribeToAll({ fromPosition: 0 }, async (events) => {
        received.push(...events);
      });

      await eventually('the subscription to deliver', () => received.length === 3);
      expect(received.map((e) => [e.streamId, e.position])).toEqual([
        ['tail-mine', 1],
        ['tail-other', 2],
        ['tail-mine', 3],
      ]);
    });

    it('given more events than the tail holds, when a subscription starts from the beginning, then the old ones come from the file', async () => {
      const store = open({ tailCapacity: 4 });
      for (let i = 0; i < 10; i++) await store.append(`tail-${i}`, [event({ i })], 'no_stream');
      const received: RecordedEvent[] = [];
      store.subscribeToAll({ fromPosition: 0 }, async (events) => {
        received.push(...events);
      });

      await eventually('the subscription to deliver', () => received.length === 10);
      expect(received.map((e) => e.data.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });
  });

  describe('the writer thread', () => {
    it('given a file, when appending, then the commit runs on the writer thread and the append is durable', async () => {
      const store = open();
      const result = await store.append('thread-1', [event({ n: 1 })], 'no_stream');
      await store.close();
      stores.splice(stores.indexOf(store), 1);
      const reader = new Database(file, { readonly: true });
      const row = reader.prepare('SELECT stream_id, revision, position FROM events').get();
      reader.close();
      expect(row).toEqual({ stream_id: 'thread-1', revision: 0, position: result.position });
    });

    it('given a process with nothing else to do, when it appends, then it waits for the commit before it may exit', () => {
      const script = `
        const { SqliteEventStore } = require(${JSON.stringify(join(__dirname, 'sqlite-event-store'))});
        const store = new SqliteEventStore({ file: ${JSON.stringify(file)} });
        const event = (id) => ({ type: 'T', data: {}, metadata: { eventId: id, correlationId: 'c', causationId: null, actor: 'a', nodeId: 'n', occurredAt: 'x', schemaVersion: 1 } });
        // the second append starts when the writer is idle again: only the commit in flight can keep the process alive
        store.append('alone-1', [event('e-1')], 'no_stream')
          .then(() => store.append('alone-1', [event('e-2')], 0))
          .then((r) => { process.stdout.write('appended ' + r.position); return store.close(); });
      `;
      const output = execFileSync(process.execPath, ['--require', 'ts-node/register/transpile-only', '-e', script], { encoding: 'utf8', env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' } });
      expect(output).toBe('appended 2');
    });
  });

  describe('cross-instance subscription', () => {
    it('given a second instance on the same file, when the first appends, then the second sees it by polling', async () => {
      const writer = open();
      const reader = open({ pollIntervalMs: 20 });
      const received: RecordedEvent[] = [];
      reader.subscribeToAll({ fromPosition: 0 }, async (events) => {
        received.push(...events);
      });

      await writer.append('cross-1', [event()], 'no_stream');
      await writer.append('cross-1', [event()], 0);

      await eventually('the subscription to deliver', () => received.length === 2);
      expect(received.map((e) => [e.streamId, e.revision, e.position])).toEqual([
        ['cross-1', 0, 1],
        ['cross-1', 1, 2],
      ]);
    });
  });
});

function event(data: Record<string, unknown> = {}): NewEvent {
  return {
    type: 'TestHappened',
    data,
    metadata: {
      eventId: randomUUID(),
      correlationId: randomUUID(),
      causationId: null,
      actor: 'system:test',
      nodeId: 'node-test',
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

