import {
  BulkWriteError,
  Doc,
  DuplicateKeyError,
} from '../../../src/infrastructure/read-store/read-store.port';
import { ReadStoreFixture, ids, rejectionOf } from './fixture';

interface User extends Doc {
  username?: string;
  n?: number;
  [field: string]: unknown;
}

export function describeWriteContract(fixture: ReadStoreFixture): void {
  describe('inserts and unique indexes', () => {
    it('given an existing _id, when inserting it again, then DuplicateKeyError is raised and the original kept', async () => {
      const collection = await fixture.givenCollection<User>('insert', [{ _id: 'u', n: 1 }]);
      const error = await rejectionOf(collection.insertOne({ _id: 'u', n: 2 }));
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect((error as DuplicateKeyError).code).toBe(11000);
      expect(await collection.findOne({ _id: 'u' })).toEqual({ _id: 'u', n: 1 });
    });

    it('given a unique index, when inserting a clashing value, then DuplicateKeyError is raised', async () => {
      const collection = await fixture.givenCollection<User>('unique', [{ _id: 'a', username: 'ann' }]);
      await collection.createIndex({ keys: { username: 1 }, unique: true });
      expect(await rejectionOf(collection.insertOne({ _id: 'b', username: 'ann' }))).toBeInstanceOf(DuplicateKeyError);
      await collection.insertOne({ _id: 'c', username: 'bob' });
      expect(ids(await collection.find({}))).toEqual(['a', 'c']);
    });

    it('given a unique index, when an update would create a clash, then DuplicateKeyError is raised and the document kept', async () => {
      const collection = await fixture.givenCollection<User>('unique', [
        { _id: 'a', username: 'ann' },
        { _id: 'b', username: 'bob' },
      ]);
      await collection.createIndex({ keys: { username: 1 }, unique: true });
      const error = await rejectionOf(collection.updateOne({ _id: 'b' }, { $set: { username: 'ann' } }));
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect(await collection.findOne({ _id: 'b' })).toEqual({ _id: 'b', username: 'bob' });
    });

    it('given a unique index, when a document is updated keeping its own value, then it is no clash', async () => {
      const collection = await fixture.givenCollection<User>('unique', [{ _id: 'a', username: 'ann', n: 1 }]);
      await collection.createIndex({ keys: { username: 1 }, unique: true });
      await collection.updateOne({ _id: 'a' }, { $set: { n: 2 } });
      expect(await collection.findOne({ username: 'ann' })).toEqual({ _id: 'a', username: 'ann', n: 2 });
    });

    it('given a unique index, when the owner of a value is deleted, then the value can be used again', async () => {
      const collection = await fixture.givenCollection<User>('unique', [{ _id: 'a', username: 'ann' }]);
      await collection.createIndex({ keys: { username: 1 }, unique: true });
      await collection.deleteOne({ _id: 'a' });
      await collection.insertOne({ _id: 'b', username: 'ann' });
      expect(await collection.findOne({ username: 'ann' })).toEqual({ _id: 'b', username: 'ann' });
    });

    it('given a unique index, when a second document also lacks the field, then it clashes on null as in MongoDB', async () => {
      const collection = await fixture.givenCollection<User>('unique', [{ _id: 'a' }]);
      await collection.createIndex({ keys: { username: 1 }, unique: true });
      expect(await rejectionOf(collection.insertOne({ _id: 'b' }))).toBeInstanceOf(DuplicateKeyError);
    });

    it('given an existing index, when it is created again with the same definition, then nothing changes', async () => {
      const collection = await fixture.givenCollection<User>('index', [{ _id: 'a', username: 'ann' }]);
      await collection.createIndex({ keys: { username: 1 }, unique: true });
      await collection.createIndex({ keys: { username: 1 }, unique: true });
      expect(await collection.countDocuments({ username: 'ann' })).toBe(1);
    });

    it('given duplicate values, when creating a unique index on them, then it is rejected', async () => {
      const collection = await fixture.givenCollection<User>('index', [
        { _id: 'a', username: 'ann' },
        { _id: 'b', username: 'ann' },
      ]);
      await rejectionOf(collection.createIndex({ keys: { username: 1 }, unique: true }));
      await collection.insertOne({ _id: 'c', username: 'ann' });
      expect(await collection.countDocuments({ username: 'ann' })).toBe(3);
    });
  });

  describe('replace and delete', () => {
    it('given a document, when replacing it, then the whole body is replaced and _id kept', async () => {
      const collection = await fixture.givenCollection<User>('replace', [{ _id: 'a', old: true, n: 1 }]);
      const result = await collection.replaceOne({ _id: 'a' }, { _id: 'a', n: 2 });
      expect(result).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null });
      expect(await collection.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 2 });
    });

    it('given no match, when replacing with upsert, then the replacement is inserted', async () => {
      const collection = fixture.freshCollection<User>('replace');
      const result = await collection.replaceOne({ _id: 'a' }, { _id: 'a', n: 1 }, { upsert: true });
      expect(result).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: 'a' });
      expect(await collection.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });
    });

    it('given several matches, when deleteOne runs, then exactly one is deleted', async () => {
      const collection = await fixture.givenCollection<User>('delete', [
        { _id: 'a', n: 1 },
        { _id: 'b', n: 1 },
      ]);
      expect(await collection.deleteOne({ n: 1 })).toEqual({ deletedCount: 1 });
      expect(await collection.countDocuments()).toBe(1);
    });

    it('given several matches, when deleteMany runs, then all matches are deleted and counted', async () => {
      const collection = await fixture.givenCollection<User>('delete', [
        { _id: 'a', n: 1 },
        { _id: 'b', n: 1 },
        { _id: 'c', n: 2 },
      ]);
      expect(await collection.deleteMany({ n: 1 })).toEqual({ deletedCount: 2 });
      expect(ids(await collection.find({}))).toEqual(['c']);
    });

    it('given no match, when deleting, then nothing is deleted', async () => {
      const collection = await fixture.givenCollection<User>('delete', [{ _id: 'a', n: 1 }]);
      expect(await collection.deleteOne({ n: 9 })).toEqual({ deletedCount: 0 });
      expect(await collection.deleteMany({ n: 9 })).toEqual({ deletedCount: 0 });
    });
  });

  describe('bulkWrite', () => {
    it('given mixed operations, when they all succeed, then the counts add up', async () => {
      const collection = await fixture.givenCollection<User>('bulk', [
        { _id: 'a', n: 1 },
        { _id: 'b', n: 1 },
      ]);
      const result = await collection.bulkWrite([
        { insertOne: { document: { _id: 'c', n: 1 } } },
        { updateOne: { filter: { _id: 'a' }, update: { $inc: { n: 1 } } } },
        { updateMany: { filter: { n: 1 }, update: { $set: { tag: 'x' } } } },
        { updateOne: { filter: { _id: 'd' }, update: { $set: { n: 4 } }, upsert: true } },
        { replaceOne: { filter: { _id: 'c' }, replacement: { _id: 'c', n: 3 } } },
        { deleteOne: { filter: { _id: 'b' } } },
      ]);
      expect(result).toEqual({ insertedCount: 1, matchedCount: 4, modifiedCount: 4, deletedCount: 1, upsertedCount: 1 });
      expect(await collection.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 'a', n: 2 },
        { _id: 'c', n: 3 },
        { _id: 'd', n: 4 },
      ]);
    });

    it('given an ordered bulk with a failing operation, when run, then it stops there and reports what was applied', async () => {
      const collection = await fixture.givenCollection<User>('bulk', [{ _id: 'a' }]);
      const error = await rejectionOf(
        collection.bulkWrite([
          { insertOne: { document: { _id: 'b' } } },
          { insertOne: { document: { _id: 'a' } } },
          { insertOne: { document: { _id: 'c' } } },
        ]),
      );
      expect(error).toBeInstanceOf(BulkWriteError);
      const bulkError = error as BulkWriteError;
      expect(bulkError.writeErrors.map((e) => e.index)).toEqual([1]);
      expect(bulkError.writeErrors[0].error).toBeInstanceOf(DuplicateKeyError);
      expect(bulkError.result.insertedCount).toBe(1);
      expect(ids(await collection.find({}))).toEqual(['a', 'b']);
    });

    it('given an unordered bulk with failing operations, when run, then all others are applied and every failure reported', async () => {
      const collection = await fixture.givenCollection<User>('bulk', [{ _id: 'a' }]);
      const error = await rejectionOf(
        collection.bulkWrite(
          [
            { insertOne: { document: { _id: 'a' } } },
            { insertOne: { document: { _id: 'b' } } },
            { insertOne: { document: { _id: 'b' } } },
            { updateOne: { filter: { _id: 'a' }, update: { $set: { n: 1 } } } },
          ],
          { ordered: false },
        ),
      );
      expect(error).toBeInstanceOf(BulkWriteError);
      const bulkError = error as BulkWriteError;
      expect(bulkError.writeErrors.map((e) => e.index)).toEqual([0, 2]);
      expect(bulkError.writeErrors.every((e) => e.error instanceof DuplicateKeyError)).toBe(true);
      expect(bulkError.result.insertedCount).toBe(1);
      expect(bulkError.result.modifiedCount).toBe(1);
      expect(await collection.find({}, { sort: { _id: 1 } })).toEqual([{ _id: 'a', n: 1 }, { _id: 'b' }]);
    });

    it('given a guarded upsert in an unordered bulk whose guard filters the document out, then it fails with a DuplicateKeyError on _id and the rest applies', async () => {
      const collection = await fixture.givenCollection<User>('bulk-guard', [{ _id: 'a', n: 5 }]);
      const error = await rejectionOf(
        collection.bulkWrite(
          [
            { updateOne: { filter: { _id: 'a', n: { $lt: 3 } }, update: { $set: { n: 3 } }, upsert: true } },
            { updateOne: { filter: { _id: 'b' }, update: { $set: { n: 1 } }, upsert: true } },
          ],
          { ordered: false },
        ),
      );
      expect(error).toBeInstanceOf(BulkWriteError);
      const [failure] = (error as BulkWriteError).writeErrors;
      expect(failure.index).toBe(0);
      expect(failure.error).toBeInstanceOf(DuplicateKeyError);
      expect('_id' in (failure.error as DuplicateKeyError).key).toBe(true);
      expect(await collection.find({}, { sort: { _id: 1 } })).toEqual([{ _id: 'a', n: 5 }, { _id: 'b', n: 1 }]);
    });
  });
}
