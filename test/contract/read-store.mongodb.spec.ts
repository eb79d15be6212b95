import { MongoReadStore } from '../../src/infrastructure/read-store/mongodb/mongo-read-store';
import { BulkWriteError, DuplicateKeyError, ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { mongoDatabaseFixture } from '../support/mongo-database';
import { describeWithService } from '../support/services/registry';
import { describeReadStoreContract } from './read-store.contract';

describeWithService('mongo', 'MongoDB read store', () => {
  const mongo = mongoDatabaseFixture('read_store_contract');

  describeReadStoreContract('mongodb', () => mongo.openStore<ReadStore>((connection) => MongoReadStore.connect(connection)));

  // What this adapter adds on top of the contract (the embedded store does the same).
  describe('MongoDB adapter specifics', () => {
    let store: MongoReadStore;
    let counter = 0;
    const fresh = () => store.collection(`specific_${Date.now().toString(36)}_${++counter}`);

    beforeEach(async () => {
      store = await MongoReadStore.connect(mongo.connection());
    });
    afterEach(() => store.close());

    it('given Dates and undefined fields, when written, then they are stored in JSON form as in the embedded store', async () => {
      const collection = fresh();
      await collection.insertOne({ _id: 'a', at: new Date('2024-05-06T07:08:09.000Z'), gone: undefined });
      await collection.updateOne({ _id: 'a' }, { $set: { seen: new Date(0) } });
      expect(await collection.findOne({ _id: 'a' })).toEqual({ _id: 'a', at: '2024-05-06T07:08:09.000Z', seen: '1970-01-01T00:00:00.000Z' });
    });

    it('given an unordered bulk upsert whose version guard fails, when run, then its DuplicateKeyError names the _id (projections read it as "already applied")', async () => {
      const collection = fresh();
      await collection.insertOne({ _id: 'p', _pos: 5 });
      const error = await collection
        .bulkWrite(
          [
            { updateOne: { filter: { _id: 'p', _pos: { $not: { $gte: 5 } } }, update: { $set: { _pos: 5 } }, upsert: true } },
            { updateOne: { filter: { _id: 'q', _pos: { $not: { $gte: 5 } } }, update: { $set: { _pos: 5 } }, upsert: true } },
          ],
          { ordered: false },
        )
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BulkWriteError);
      const [failure] = (error as BulkWriteError).writeErrors;
      expect(failure.index).toBe(0);
      expect(failure.error).toBeInstanceOf(DuplicateKeyError);
      expect((failure.error as DuplicateKeyError).key).toEqual({ _id: 'p' });
      expect((error as BulkWriteError).result.upsertedCount).toBe(1);
    });

    it('given an upsert in a bulk without _id in the filter, when it inserts, then the id is a generated string', async () => {
      const collection = fresh();
      await collection.bulkWrite([{ updateOne: { filter: { key: 'k' }, update: { $set: { v: 1 } }, upsert: true } }]);
      const doc = await collection.findOne({ key: 'k' });
      expect(doc?._id).toMatch(/^[0-9a-f]{24}$/);
    });

    it('given a closed store, when it is used, then it fails loudly', async () => {
      const collection = store.collection('any');
      await store.close();
      await expect(collection.find({})).rejects.toThrow('closed');
      expect(() => store.collection('any')).toThrow('closed');
      await expect(store.getCheckpoint('x')).rejects.toThrow('closed');
      await store.close(); // idempotent
    });
  });
});
