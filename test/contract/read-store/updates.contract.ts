import { Doc, DuplicateKeyError } from '../../../src/infrastructure/read-store/read-store.port';
import { ReadStoreFixture, rejectionOf } from './fixture';

interface Counter extends Doc {
  [field: string]: unknown;
}

export function describeUpdateContract(fixture: ReadStoreFixture): void {
  const given = (doc: Counter) => fixture.givenCollection<Counter>('update', [doc]);

  describe('update operators', () => {
    it('given a document, when $set is applied, then top-level and dot-path fields are set and others kept', async () => {
      const collection = await given({ _id: 'd', name: 'old', keep: 1, nested: { a: 1 } });
      await collection.updateOne({ _id: 'd' }, { $set: { name: 'new', 'nested.b': 2, 'fresh.c': 3 } });
      expect(await collection.findOne({ _id: 'd' })).toEqual({
        _id: 'd',
        name: 'new',
        keep: 1,
        nested: { a: 1, b: 2 },
        fresh: { c: 3 },
      });
    });

    it('given a document, when $unset is applied, then the field is removed', async () => {
      const collection = await given({ _id: 'd', a: 1, b: 2 });
      await collection.updateOne({ _id: 'd' }, { $unset: { a: '' } });
      expect(await collection.findOne({ _id: 'd' })).toEqual({ _id: 'd', b: 2 });
    });

    it('given a document, when $inc is applied, then the counter grows and a missing counter starts from the increment', async () => {
      const collection = await given({ _id: 'd', count: 5 });
      await collection.updateOne({ _id: 'd' }, { $inc: { count: 2, missing: 3, 'stats.hits': 1 } });
      expect(await collection.findOne({ _id: 'd' })).toEqual({ _id: 'd', count: 7, missing: 3, stats: { hits: 1 } });
    });

    it('given a document, when $push is applied, then values are appended and a missing array is created', async () => {
      const collection = await given({ _id: 'd', list: [1] });
      await collection.updateOne({ _id: 'd' }, { $push: { list: 2, other: 'x' } });
      await collection.updateOne({ _id: 'd' }, { $push: { list: { $each: [3, 4] } } });
      expect(await collection.findOne({ _id: 'd' })).toEqual({ _id: 'd', list: [1, 2, 3, 4], other: ['x'] });
    });

    it('given an array, when $pull is applied with a value or a condition, then the matching elements are removed', async () => {
      const collection = await given({ _id: 'd', tags: ['a', 'b', 'a'], items: [{ k: 1 }, { k: 2 }, { k: 3 }] });
      await collection.updateOne({ _id: 'd' }, { $pull: { tags: 'a', items: { k: { $gte: 2 } } } });
      expect(await collection.findOne({ _id: 'd' })).toEqual({ _id: 'd', tags: ['b'], items: [{ k: 1 }] });
    });

    it('given an array, when $addToSet is applied, then only values not yet present are added', async () => {
      const collection = await given({ _id: 'd', tags: ['a'] });
      await collection.updateOne({ _id: 'd' }, { $addToSet: { tags: 'a' } });
      await collection.updateOne({ _id: 'd' }, { $addToSet: { tags: { $each: ['b', 'a', 'c'] } } });
      expect(await collection.findOne({ _id: 'd' })).toEqual({ _id: 'd', tags: ['a', 'b', 'c'] });
    });

    it('given numbers, when $max and $min are applied, then a field only moves in that direction', async () => {
      const collection = await given({ _id: 'd', high: 5, low: 5 });
      await collection.updateOne({ _id: 'd' }, { $max: { high: 3, newHigh: 1 }, $min: { low: 3 } });
      await collection.updateOne({ _id: 'd' }, { $max: { high: 9 }, $min: { low: 4 } });
      expect(await collection.findOne({ _id: 'd' })).toEqual({ _id: 'd', high: 9, low: 3, newHigh: 1 });
    });

    it('given a document, when an update changes nothing, then it is matched but not modified', async () => {
      const collection = await given({ _id: 'd', name: 'same' });
      expect(await collection.updateOne({ _id: 'd' }, { $set: { name: 'same' } })).toEqual({
        matchedCount: 1,
        modifiedCount: 0,
        upsertedCount: 0,
        upsertedId: null,
      });
    });

    it('given no matching document and no upsert, when updating, then nothing is matched or inserted', async () => {
      const collection = await given({ _id: 'd', n: 1 });
      expect(await collection.updateOne({ _id: 'other' }, { $set: { n: 2 } })).toEqual({
        matchedCount: 0,
        modifiedCount: 0,
        upsertedCount: 0,
        upsertedId: null,
      });
      expect(await collection.countDocuments()).toBe(1);
    });

    it('given several matching documents, when updateOne runs, then exactly one is updated', async () => {
      const collection = await fixture.givenCollection<Counter>('update', [
        { _id: 'a', group: 'g', n: 0 },
        { _id: 'b', group: 'g', n: 0 },
      ]);
      const result = await collection.updateOne({ group: 'g' }, { $inc: { n: 1 } });
      expect(result.matchedCount).toBe(1);
      expect(await collection.countDocuments({ n: 1 })).toBe(1);
    });

    it('given several matching documents, when updateMany runs, then all are updated and counted', async () => {
      const collection = await fixture.givenCollection<Counter>('update', [
        { _id: 'a', group: 'g', n: 0 },
        { _id: 'b', group: 'g', n: 5 },
        { _id: 'c', group: 'h', n: 0 },
      ]);
      const result = await collection.updateMany({ group: 'g' }, { $set: { n: 5 } });
      expect(result).toEqual({ matchedCount: 2, modifiedCount: 1, upsertedCount: 0, upsertedId: null });
      expect(await collection.countDocuments({ n: 5 })).toBe(2);
    });

    it('given an update without operators, when updating, then it is rejected', async () => {
      const collection = await given({ _id: 'd', n: 1 });
      await rejectionOf(collection.updateOne({ _id: 'd' }, { n: 2 }));
      expect(await collection.findOne({ _id: 'd' })).toEqual({ _id: 'd', n: 1 });
    });
  });

  describe('upserts', () => {
    it('given no match, when upserting, then a document is built from the filter equalities, the update and $setOnInsert', async () => {
      const collection = fixture.freshCollection<Counter>('upsert');
      const result = await collection.updateOne(
        { _id: 'u1', tenant: 't1', 'meta.kind': 'agent', score: { $lt: 10 } },
        { $set: { name: 'n' }, $inc: { count: 1 }, $setOnInsert: { createdAt: '2024-01-01' } },
        { upsert: true },
      );
      expect(result).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: 'u1' });
      expect(await collection.findOne({ _id: 'u1' })).toEqual({
        _id: 'u1',
        tenant: 't1',
        meta: { kind: 'agent' },
        name: 'n',
        count: 1,
        createdAt: '2024-01-01',
      });
    });

    it('given a match, when upserting, then the document is updated and $setOnInsert is ignored', async () => {
      const collection = await given({ _id: 'u1', count: 1, createdAt: 'first' });
      const result = await collection.updateOne(
        { _id: 'u1' },
        { $inc: { count: 1 }, $setOnInsert: { createdAt: 'second' } },
        { upsert: true },
      );
      expect(result).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null });
      expect(await collection.findOne({ _id: 'u1' })).toEqual({ _id: 'u1', count: 2, createdAt: 'first' });
    });

    it('given a filter without _id, when an upsert inserts, then the new document gets a generated string id', async () => {
      const collection = fixture.freshCollection<Counter>('upsert');
      const result = await collection.updateOne({ key: 'k' }, { $set: { v: 1 } }, { upsert: true });
      expect(typeof result.upsertedId).toBe('string');
      expect(await collection.findOne({ key: 'k' })).toEqual({ _id: result.upsertedId, key: 'k', v: 1 });
    });

    it('given an existing _id failing an extra condition, when upserting, then DuplicateKeyError is raised and the document kept', async () => {
      // How projections detect an event already applied: the version guard fails, the insert clashes.
      const collection = await given({ _id: 'p', version: 5 });
      const error = await rejectionOf(
        collection.updateOne({ _id: 'p', version: { $lt: 5 } }, { $set: { version: 5, touched: true } }, { upsert: true }),
      );
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect((error as DuplicateKeyError).code).toBe(11000);
      expect(await collection.findOne({ _id: 'p' })).toEqual({ _id: 'p', version: 5 });
    });

    it('given a unique index, when an upsert would insert a clashing value, then DuplicateKeyError is raised', async () => {
      const collection = await given({ _id: 'a', email: 'x@example.com' });
      await collection.createIndex({ keys: { email: 1 }, unique: true });
      const error = await rejectionOf(
        collection.updateOne({ _id: 'b' }, { $set: { email: 'x@example.com' } }, { upsert: true }),
      );
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect(await collection.countDocuments()).toBe(1);
    });

    it('given several matches, when updateMany upserts, then all are updated and nothing is inserted', async () => {
      const collection = await fixture.givenCollection<Counter>('upsert', [
        { _id: 'a', g: 1 },
        { _id: 'b', g: 1 },
      ]);
      const result = await collection.updateMany({ g: 1 }, { $set: { seen: true } }, { upsert: true });
      expect(result).toEqual({ matchedCount: 2, modifiedCount: 2, upsertedCount: 0, upsertedId: null });
      expect(await collection.countDocuments()).toBe(2);
    });
  });
}
