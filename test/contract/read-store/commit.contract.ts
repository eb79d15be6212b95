import { type Doc, DuplicateKeyError, type QueuedWrite } from '../../../src/infrastructure/read-store/read-store.port';
import { type ReadStoreFixture, rejectionOf, uniqueName } from './fixture';

/** An applyOnce-style write: guarded by the position of the event that makes it. */
function guarded(collection: string, id: string, position: number, update: Record<string, unknown>): QueuedWrite {
  const set = (update.$set as Record<string, unknown> | undefined) ?? {};
  return {
    collection,
    operation: { updateOne: { filter: { _id: id, _pos: { $not: { $gte: position } } }, update: { ...update, $set: { ...set, _pos: position } }, upsert: true } },
    duplicateIdMeansApplied: true,
  };
}

export function describeCommitContract(fixture: ReadStoreFixture): void {
  describe('commit (one page of projection writes)', () => {
    it('given several writes to one document, when committed, then it sees them in queue order', async () => {
      const name = uniqueName('commit');
      await fixture.store.commit(
        [
          { collection: name, operation: { updateOne: { filter: { _id: 'd' }, update: { $set: { step: 'a', n: 1 } }, upsert: true } } },
          { collection: name, operation: { updateOne: { filter: { _id: 'd' }, update: { $inc: { n: 10 } } } } },
          { collection: name, operation: { updateOne: { filter: { _id: 'd' }, update: { $set: { step: 'b' }, $inc: { n: 100 } } } } },
        ],
        new Map(),
      );
      expect(await fixture.store.collection(name).findOne({ _id: 'd' })).toEqual({ _id: 'd', step: 'b', n: 111 });
    });

    it('given a counter bumped by every event of a page, when committed, then it holds the sum', async () => {
      const name = uniqueName('commit');
      const writes = Array.from({ length: 200 }, (_, i) => guarded(name, 'stats', i + 1, { $inc: { count: 1 } }));
      await fixture.store.commit(writes, new Map());
      expect(await fixture.store.collection(name).findOne({ _id: 'stats' })).toEqual({ _id: 'stats', count: 200, _pos: 200 });
    });

    it('given a page already applied, when it is committed again, then nothing changes and nothing fails', async () => {
      const name = uniqueName('commit');
      const page = [guarded(name, 'a', 1, { $inc: { count: 1 } }), guarded(name, 'a', 2, { $inc: { count: 1 } }), guarded(name, 'b', 3, { $set: { v: 'x' } })];
      await fixture.store.commit(page, new Map());
      await fixture.store.commit(page, new Map());
      const docs = await fixture.store.collection(name).find({}, { sort: { _id: 1 } });
      expect(docs).toEqual([
        { _id: 'a', count: 2, _pos: 2 },
        { _id: 'b', v: 'x', _pos: 3 },
      ]);
    });

    it('given a write without a single _id, when committed, then it sees the writes queued before it and none after', async () => {
      const name = uniqueName('commit');
      await fixture.store.commit(
        [
          { collection: name, operation: { insertOne: { document: { _id: 'a', team: 'red' } } } },
          { collection: name, operation: { insertOne: { document: { _id: 'b', team: 'red' } } } },
          { collection: name, operation: { updateMany: { filter: { team: 'red' }, update: { $set: { seen: true } } } } },
          { collection: name, operation: { insertOne: { document: { _id: 'c', team: 'red' } } } },
        ],
        new Map(),
      );
      const docs = await fixture.store.collection(name).find({}, { sort: { _id: 1 } });
      expect(docs).toEqual([
        { _id: 'a', team: 'red', seen: true },
        { _id: 'b', team: 'red', seen: true },
        { _id: 'c', team: 'red' },
      ]);
    });

    it('given a delete and a new version of one document in a page, when committed, then the last write wins', async () => {
      const collection = await fixture.givenCollection<Doc>('commit', [{ _id: 'd', v: 1 }]);
      await fixture.store.commit(
        [
          { collection: collection.name, operation: { deleteOne: { filter: { _id: 'd' } } } },
          { collection: collection.name, operation: { updateOne: { filter: { _id: 'd' }, update: { $set: { v: 2 } }, upsert: true } } },
          { collection: collection.name, operation: { deleteOne: { filter: { _id: 'e' } } } },
        ],
        new Map(),
      );
      expect(await collection.find({})).toEqual([{ _id: 'd', v: 2 }]);
    });

    it('given writes and checkpoints, when committed, then the checkpoints are stored with the writes', async () => {
      const name = uniqueName('commit');
      const [first, second] = [uniqueName('cp'), uniqueName('cp')];
      await fixture.store.commit([guarded(name, 'a', 5, { $set: { v: 1 } })], new Map([[first, 5], [second, 7]]));
      expect(await fixture.store.getCheckpoints([first, second, uniqueName('never')])).toEqual(new Map([[first, 5], [second, 7]]));
      expect(await fixture.store.getCheckpoint(first)).toBe(5);
    });

    it('given a write that clashes on a unique index, when committed, then it fails and stores no checkpoint', async () => {
      const collection = await fixture.givenCollection<Doc>('commit', [{ _id: 'a', email: 'x@example.com' }]);
      await collection.createIndex({ keys: { email: 1 }, unique: true });
      const checkpoint = uniqueName('cp');
      const error = await rejectionOf(
        fixture.store.commit(
          [{ collection: collection.name, operation: { updateOne: { filter: { _id: 'b' }, update: { $set: { email: 'x@example.com' } }, upsert: true } } }],
          new Map([[checkpoint, 9]]),
        ),
      );
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect(await fixture.store.getCheckpoint(checkpoint)).toBeNull();
    });

    it('given a fresh collection, when documents are loaded in bulk, then all of them are there', async () => {
      const name = uniqueName('load');
      const documents = Array.from({ length: 2500 }, (_, i) => ({ _id: `d${i}`, n: i, nested: { even: i % 2 === 0 } }));
      await fixture.store.load(name, documents);
      const collection = fixture.store.collection(name);
      expect(await collection.countDocuments()).toBe(2500);
      expect(await collection.findOne({ _id: 'd1234' })).toEqual({ _id: 'd1234', n: 1234, nested: { even: true } });
    });

    it('given a document already there, when loading it again, then the load fails on the duplicate id', async () => {
      const collection = await fixture.givenCollection<Doc>('load', [{ _id: 'd1', n: 1 }]);
      const error = await rejectionOf(fixture.store.load(collection.name, [{ _id: 'd2', n: 2 }, { _id: 'd1', n: 9 }]));
      expect(error.message).toMatch(/duplicate key|E11000/);
      expect(await collection.findOne({ _id: 'd2' })).toEqual({ _id: 'd2', n: 2 });
    });
  });
}
