import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Query } from 'mingo/query';
import { Collection, Doc, Filter } from '../read-store.port';
import { EmbeddedReadStore } from './embedded-read-store';

/** A small deterministic PRNG, so a failing parity case can be reproduced. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const STATUS_VALUES: unknown[] = ['a', 'b', 'c', 1, '1', 1.5, true, false, null];
const TAG_VALUES = ['x', 'y', 'z'];
const TEAMS = ['red', 'blue'];

function randomDoc(id: number, random: () => number): Doc {
  const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
  const doc: Doc = { _id: `d${id}` };
  if (random() < 0.9) doc.status = pick(STATUS_VALUES);
  if (random() < 0.8) doc.tags = TAG_VALUES.filter(() => random() < 0.4);
  if (random() < 0.5) doc.owner = { team: pick(TEAMS) };
  else if (random() < 0.5) doc.owner = [{ team: pick(TEAMS) }, { team: pick(TEAMS) }];
  return doc;
}

function parityFilters(): Filter[] {
  const filters: Filter[] = [];
  for (const value of [...STATUS_VALUES, 'missing-value', 0]) {
    if (value === null) continue; // null equality is answered by a scan on purpose
    filters.push({ status: value }, { status: { $eq: value } });
    for (const team of TEAMS) filters.push({ status: value, 'owner.team': team });
  }
  for (const tag of TAG_VALUES) filters.push({ tags: tag }, { tags: tag, status: 'a' });
  for (const team of TEAMS) filters.push({ 'owner.team': team });
  return filters;
}

async function ids(collection: Collection, filter: Filter): Promise<string[]> {
  return (await collection.find(filter)).map((doc) => doc._id).sort();
}

describe('EmbeddedReadStore (adapter specifics)', () => {
  describe('equality indexes', () => {
    it('given random documents, when filtering with and without indexes, then the answers are identical, also after writes', async () => {
      const store = new EmbeddedReadStore({ file: null });
      const indexed = store.collection('indexed');
      const scanned = store.collection('scanned');
      await indexed.createIndex({ keys: { status: 1 } });
      await indexed.createIndex({ keys: { tags: 1 } });
      await indexed.createIndex({ keys: { 'owner.team': 1 } });
      await indexed.createIndex({ keys: { status: 1, 'owner.team': 1 } });
      const random = prng(42);
      for (let i = 0; i < 400; i++) {
        const doc = randomDoc(i, random);
        await indexed.insertOne(doc);
        await scanned.insertOne(doc);
      }

      const compare = async () => {
        for (const filter of parityFilters()) {
          expect({ filter, ids: await ids(indexed, filter) }).toEqual({ filter, ids: await ids(scanned, filter) });
        }
      };
      await compare();

      // index maintenance: updates that move documents between keys, and deletes
      for (const collection of [indexed, scanned]) {
        await collection.updateMany({ status: 'a' }, { $set: { status: 'b' }, $push: { tags: 'z' } });
        await collection.updateMany({ 'owner.team': 'red' }, { $unset: { owner: '' } });
        await collection.deleteMany({ status: 1 });
      }
      await compare();
      await store.close();
    });

    it('given an index on a field, when filtering by plain equality on it, then only the indexed candidates are tested', async () => {
      const store = new EmbeddedReadStore({ file: null });
      const users = store.collection('users');
      await users.createIndex({ keys: { username_key: 1 }, unique: true });
      for (let i = 0; i < 1000; i++) await users.insertOne({ _id: `u${i}`, username_key: `user${i}` });
      const test = jest.spyOn(Query.prototype, 'test');
      try {
        expect(await users.findOne({ username_key: 'user500' })).toEqual({ _id: 'u500', username_key: 'user500' });
        expect(test.mock.calls.length).toBeLessThanOrEqual(1);
        test.mockClear();
        await users.countDocuments({ status: 'none' }); // not indexed: a scan
        expect(test.mock.calls.length).toBe(1000);
      } finally {
        test.mockRestore();
        await store.close();
      }
    });

    it('given a unique index, when two documents lack the field, then they clash on null as in MongoDB', async () => {
      const store = new EmbeddedReadStore({ file: null });
      const users = store.collection('users');
      await users.createIndex({ keys: { email: 1 }, unique: true });
      await users.insertOne({ _id: 'a' });
      await expect(users.insertOne({ _id: 'b' })).rejects.toMatchObject({ code: 11000, key: { email: null } });
      await store.close();
    });
  });

  describe('write-behind to SQLite', () => {
    let dir: string;
    let file: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'embedded-read-store-'));
      file = join(dir, 'read-models.db');
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    /** A second store opened on the file shows what is durable right now. */
    async function durableState(collection: string, checkpoint: string) {
      const reader = new EmbeddedReadStore({ file });
      try {
        return { count: await reader.collection(collection).countDocuments(), checkpoint: await reader.getCheckpoint(checkpoint) };
      } finally {
        await reader.close();
      }
    }

    async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error('condition not met in time');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }

    it('given many writes in one interval, when the timer fires, then they are written in one transaction with the checkpoint', async () => {
      const store = new EmbeddedReadStore({ file, flushIntervalMs: 30 });
      const items = store.collection('items');
      for (let i = 0; i < 100; i++) await items.insertOne({ _id: `i${i}`, n: i });
      await items.updateMany({}, { $inc: { n: 1 } });
      await store.setCheckpoint('items-projection', 100);
      expect(store.flushes).toBe(0);
      expect(await durableState('items', 'items-projection')).toEqual({ count: 0, checkpoint: null });

      await waitUntil(() => store.flushes > 0);
      expect(store.flushes).toBe(1);
      expect(await durableState('items', 'items-projection')).toEqual({ count: 100, checkpoint: 100 });
      await store.close();
    });

    it('given pending writes, when flush() is called, then they are durable at once', async () => {
      const store = new EmbeddedReadStore({ file, flushIntervalMs: 60_000 });
      await store.collection('items').insertOne({ _id: 'a' });
      await store.setCheckpoint('p', 1);
      await store.flush();
      expect(await durableState('items', 'p')).toEqual({ count: 1, checkpoint: 1 });
      await store.close();
    });

    it('given a drop followed by new writes in the same batch, when flushed, then only the new writes survive', async () => {
      const store = new EmbeddedReadStore({ file, flushIntervalMs: 60_000 });
      await store.collection('items').insertOne({ _id: 'old' });
      await store.flush();
      await store.dropCollection('items');
      await store.collection('items').insertOne({ _id: 'new' });
      await store.close();
      const reopened = new EmbeddedReadStore({ file });
      expect(await reopened.collection('items').find({})).toEqual([{ _id: 'new' }]);
      await reopened.close();
    });

    it('given nothing changed, when flushing, then no transaction is written', async () => {
      const store = new EmbeddedReadStore({ file });
      await store.flush();
      await store.collection('items').find({});
      await store.flush();
      expect(store.flushes).toBe(0);
      await store.close();
    });

    it('given a closed store, when it is used, then it fails loudly', async () => {
      const store = new EmbeddedReadStore({ file });
      const items = store.collection('items');
      await store.close();
      await expect(items.find({})).rejects.toThrow('closed');
      expect(() => store.collection('items')).toThrow('closed');
      await store.close(); // idempotent
    });
  });
});
