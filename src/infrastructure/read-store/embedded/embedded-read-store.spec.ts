import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Query } from 'mingo/query';
import { eventually } from '../../../../test/support/eventually';
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
        // not indexed: a scan ($type is left to mingo by the fast paths, so each candidate is a Query.test)
        await users.countDocuments({ status: { $type: 'string' } });
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

  describe('ordered reads and $in', () => {
    const GROUPS: unknown[] = ['a', 'b', 1, null];
    const SCORES: unknown[] = [0, 1, 1, 2, 2.5, -3, 'x', 'y', '10', null, true, false];

    function rankedDoc(id: number, random: () => number): Doc {
      const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
      const doc: Doc = { _id: `r${id}` };
      if (random() < 0.85) doc.g = pick(GROUPS);
      if (random() < 0.85) doc.s = pick(SCORES);
      if (random() < 0.9) doc.t = Math.floor(random() * 4);
      if (random() < 0.7) doc.m = { x: pick(['p', 'q', 3]) };
      return doc;
    }

    /** The sort keys of each result; missing and null sort as equal, so both read null. */
    function keysOf(docs: Doc[], fields: string[]): unknown[][] {
      const at = (doc: Doc, path: string): unknown => {
        let node: unknown = doc;
        for (const segment of path.split('.')) {
          if (node === null || typeof node !== 'object' || !(segment in (node as object))) return null;
          node = (node as Record<string, unknown>)[segment];
        }
        return node;
      };
      return docs.map((doc) => fields.map((field) => at(doc, field)));
    }

    async function compareOrdered(indexed: Collection, scanned: Collection): Promise<void> {
      const sorts: Record<string, 1 | -1>[] = [
        { s: -1, t: 1 },
        { s: 1, t: -1 },
        { s: 1, t: -1, g: 1 }, // no index fits: a scan
        { t: 1 },
        { t: -1 },
        { 'm.x': 1, t: 1 },
      ];
      const filters: Filter[] = [{}, { t: { $gt: 1 } }, { g: 'b' }];
      for (const g of GROUPS) filters.push({ g }, { g, t: { $ne: 2 } });
      // $in prefixes (merged ranges) and ranges after the equalities (window candidates, counts)
      filters.push(
        { g: { $in: ['a', 'b', 1] } },
        { g: { $in: ['b', 1] }, s: { $in: [1, 2.5, 'x'] } },
        { g: 'a', s: { $gte: 1 } },
        { g: { $in: ['a', 'b'] }, s: { $gt: 'x', $lte: 'y' } },
        { s: { $lt: 2 } },
        { t: { $gte: 1, $lt: 3 } },
        { t: { $gte: 'a' } },
      );
      for (const sort of sorts) {
        for (const filter of filters) {
          for (const [skip, limit] of [
            [0, 1],
            [0, 7],
            [5, 20],
            [0, 1000],
          ]) {
            const options = { sort, skip, limit };
            const fromIndex = await indexed.find(filter, options);
            const fromScan = await scanned.find(filter, options);
            const fields = Object.keys(sort);
            expect({ filter, options, keys: keysOf(fromIndex, fields) }).toEqual({ filter, options, keys: keysOf(fromScan, fields) });
            if (limit === 1000) {
              expect(fromIndex.map((doc) => doc._id).sort()).toEqual(fromScan.map((doc) => doc._id).sort());
              expect({ filter, count: await indexed.countDocuments(filter) }).toEqual({ filter, count: await scanned.countDocuments(filter) });
            }
          }
        }
      }
    }

    async function compareIn(indexed: Collection, scanned: Collection): Promise<void> {
      const filters: Filter[] = [
        { _id: { $in: ['r1', 'r7', 'r7', 'r399', 'nope'] } },
        { _id: { $in: [] } },
        { _id: { $in: ['r3', 'r4'] }, t: 2 },
        { g: { $in: ['a', 1] } },
        { g: { $in: ['b', 'b', '1'] }, t: { $lt: 2 } },
        { g: { $in: [] } },
        { g: { $in: ['a', null] } }, // null also matches missing: a scan
        { g: 'a', s: { $in: [1, 'x', true] }, t: { $in: [0, 3] } },
        { 'm.x': { $in: ['p', 3] }, t: { $in: [1, 2] } },
      ];
      for (const filter of filters) {
        expect({ filter, ids: await ids(indexed, filter) }).toEqual({ filter, ids: await ids(scanned, filter) });
      }
    }

    it('given random documents, when reading sorted with a limit or by $in, then indexes give the scan answers, also after writes', async () => {
      const store = new EmbeddedReadStore({ file: null });
      const indexed = store.collection('indexed');
      const scanned = store.collection('scanned');
      await indexed.createIndex({ keys: { s: -1, t: 1 } });
      await indexed.createIndex({ keys: { g: 1, s: 1, t: -1 } });
      await indexed.createIndex({ keys: { t: 1 } });
      await indexed.createIndex({ keys: { g: 1 } });
      await indexed.createIndex({ keys: { g: 1, s: 1, t: 1 }, name: 'g_s_t_in' });
      await indexed.createIndex({ keys: { 'm.x': 1, t: 1 } });
      const random = prng(7);
      for (let i = 0; i < 400; i++) {
        const doc = rankedDoc(i, random);
        await indexed.insertOne(doc);
        await scanned.insertOne(doc);
      }
      await compareOrdered(indexed, scanned);
      await compareIn(indexed, scanned);

      // writes after the ordered views exist: moves, type changes, unsets, deletes, inserts
      for (let round = 0; round < 3; round++) {
        const writes = prng(100 + round);
        const ops: [Filter, Record<string, unknown>][] = [];
        for (let k = 0; k < 60; k++) {
          const id = `r${Math.floor(writes() * 420)}`;
          const choice = writes();
          if (choice < 0.3) ops.push([{ _id: id }, { $inc: { t: 1 } }]);
          else if (choice < 0.6) ops.push([{ _id: id }, { $set: { s: SCORES[Math.floor(writes() * SCORES.length)] } }]);
          else if (choice < 0.7) ops.push([{ _id: id }, { $unset: { s: '', g: '' } }]);
          else if (choice < 0.8) ops.push([{ _id: id }, { $set: { 'm.x': 'q', g: 'b' } }]);
          else ops.push([{ _id: id }, { $set: { g: GROUPS[Math.floor(writes() * GROUPS.length)] } }]);
        }
        for (const collection of [indexed, scanned]) {
          for (const [filter, update] of ops) await collection.updateOne(filter, update, { upsert: true });
          await collection.deleteMany({ t: 3, g: 'a' });
          await collection.replaceOne({ _id: `r${round}` }, { _id: `r${round}`, s: 'replaced', t: round });
        }
        await compareOrdered(indexed, scanned);
        await compareIn(indexed, scanned);
      }

      // an array on an indexed path: the ordered view steps aside, answers stay right
      for (const collection of [indexed, scanned]) await collection.updateOne({ _id: 'r10' }, { $set: { s: [5, 'x'] } });
      await compareOrdered(indexed, scanned);
      for (const collection of [indexed, scanned]) await collection.updateOne({ _id: 'r10' }, { $set: { s: 4 } });
      await compareOrdered(indexed, scanned);

      // emptied and refilled: the ordered views are rebuilt
      await store.dropCollection('indexed');
      await indexed.createIndex({ keys: { s: -1, t: 1 } });
      for (const doc of await scanned.find({})) await indexed.insertOne(doc);
      await compareOrdered(indexed, scanned);
      await store.close();
    });

    it('given an index matching the sort, when reading sorted with a limit, then far fewer documents than the collection are tested', async () => {
      const store = new EmbeddedReadStore({ file: null });
      const ranking = store.collection('ranking');
      await ranking.createIndex({ keys: { spark: -1, reached_at: 1, user_id: 1 } });
      await ranking.createIndex({ keys: { track: 1, score: -1, reached_at: 1, user_id: 1 } });
      for (let i = 0; i < 2000; i++) {
        await ranking.insertOne({
          _id: `u${i}`,
          user_id: `u${i}`,
          spark: (i * 31) % 97,
          score: (i * 17) % 89,
          track: i % 2 ? 'digital' : 'analog',
          reached_at: `2024-01-${String((i % 28) + 1).padStart(2, '0')}`,
        });
      }
      const test = jest.spyOn(Query.prototype, 'test');
      try {
        const top = await ranking.find({}, { sort: { spark: -1, reached_at: 1, user_id: 1 }, limit: 10 });
        expect(top.map((doc) => doc.spark)).toEqual(Array(10).fill(96));
        expect(test.mock.calls.length).toBeLessThanOrEqual(20);
        test.mockClear();

        const digital = await ranking.find({ track: 'digital' }, { sort: { score: -1, reached_at: 1, user_id: 1 }, skip: 5, limit: 10 });
        expect(digital).toHaveLength(10);
        expect(digital.every((doc) => doc.track === 'digital')).toBe(true);
        const scores = digital.map((doc) => doc.score as number);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
        expect(scores[0]).toBe(88);
        expect(test.mock.calls.length).toBeLessThanOrEqual(20);
        test.mockClear();

        // all directions reversed walks the index backwards
        const bottom = await ranking.findOne({}, { sort: { spark: 1, reached_at: -1, user_id: -1 } });
        expect(bottom?.spark).toBe(0);
        expect(test.mock.calls.length).toBeLessThanOrEqual(2);
        test.mockClear();

        expect(await ranking.find({ _id: { $in: ['u1', 'u2', 'u3'] } })).toHaveLength(3);
        expect(test.mock.calls.length).toBeLessThanOrEqual(3);
      } finally {
        test.mockRestore();
        await store.close();
      }
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

    it('given many writes in one interval, when the timer fires, then they are written in one transaction with the checkpoint', async () => {
      const store = new EmbeddedReadStore({ file, flushIntervalMs: 30 });
      const items = store.collection('items');
      for (let i = 0; i < 100; i++) await items.insertOne({ _id: `i${i}`, n: i });
      await items.updateMany({}, { $inc: { n: 1 } });
      await store.setCheckpoint('items-projection', 100);
      expect(store.flushes).toBe(0);
      expect(await durableState('items', 'items-projection')).toEqual({ count: 0, checkpoint: null });

      await eventually('the timer to flush', () => store.flushes > 0);
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
  it('given a stored document with a field named __proto__, when it is read, then it comes back as a field and no prototype changes', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const docs = store.collection('hostile');
    await docs.insertOne(JSON.parse('{"_id":"h1","__proto__":{"polluted":true}}'));
    const found = (await docs.findOne({ _id: 'h1' })) as Record<string, unknown>;
    expect(Object.getPrototypeOf(found)).toBe(Object.prototype);
    expect((found as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(found)).toEqual(['_id', '__proto__']);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    await store.close();
  });
});
