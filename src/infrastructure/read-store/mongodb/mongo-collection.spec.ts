import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import type { Collection as DriverCollection } from 'mongodb';
import { BulkWriteError, DuplicateKeyError } from '../read-store.port';
import { MongoCollection } from './mongo-collection';
import { StoredDocument } from './mongo-documents';

/** A driver collection whose methods are jest mocks: no server involved. */
function stubDriver(overrides: Record<string, jest.Mock> = {}) {
  const driver = {
    find: jest.fn(() => ({ toArray: async () => [] })),
    findOne: jest.fn(async () => null),
    insertOne: jest.fn(async () => ({ acknowledged: true })),
    updateOne: jest.fn(async () => ({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: 'u' })),
    bulkWrite: jest.fn(),
    createIndex: jest.fn(async () => 'name'),
    ...overrides,
  };
  return { driver, collection: new MongoCollection('items', driver as unknown as DriverCollection<StoredDocument>, () => undefined) };
}

const DUP_A = 'E11000 duplicate key error collection: db.items index: _id_ dup key: { _id: "a" }';

describe('MongoCollection (driver stubbed)', () => {
  it('given find options, when querying, then only meaningful options reach the driver (limit 0 = no limit)', async () => {
    const { driver, collection } = stubDriver();
    await collection.find({ status: 'active' }, { sort: {}, skip: 0, limit: 0, projection: {} });
    await collection.find({}, { sort: { name: 1 }, skip: 2, limit: 5, projection: { name: 1 } });
    expect(driver.find.mock.calls).toEqual([
      [{ status: 'active' }, {}],
      [{}, { sort: { name: 1 }, skip: 2, limit: 5, projection: { name: 1 } }],
    ]);
  });

  it('given the driver raises E11000 on insert, when inserting, then the port sees a DuplicateKeyError with the key', async () => {
    const { collection } = stubDriver({ insertOne: jest.fn(async () => Promise.reject(new MongoServerError({ errmsg: DUP_A, code: 11000 }))) });
    const error = await collection.insertOne({ _id: 'a' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateKeyError);
    expect((error as DuplicateKeyError).key).toEqual({ _id: 'a' });
    expect((error as DuplicateKeyError).collection).toBe('items');
  });

  it('given a MongoBulkWriteError, when bulk writing, then the port sees a BulkWriteError with mapped errors and counts', async () => {
    const driverError = new MongoBulkWriteError(
      { message: DUP_A, code: 11000, writeErrors: [{ index: 1, code: 11000, errmsg: DUP_A }] } as never,
      { insertedCount: 3, matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0 } as never,
    );
    const { driver, collection } = stubDriver({ bulkWrite: jest.fn(async () => Promise.reject(driverError)) });
    const error = await collection
      .bulkWrite([{ insertOne: { document: { _id: 'b' } } }, { insertOne: { document: { _id: 'a' } } }, { insertOne: { document: { _id: 'c' } } }])
      .catch((e: unknown) => e);
    expect(driver.bulkWrite).toHaveBeenCalledWith(expect.any(Array), { ordered: true });
    expect(error).toBeInstanceOf(BulkWriteError);
    const bulkError = error as BulkWriteError;
    expect(bulkError.result.insertedCount).toBe(1);
    expect(bulkError.writeErrors.map((e) => e.index)).toEqual([1]);
    expect(bulkError.writeErrors[0].error).toBeInstanceOf(DuplicateKeyError);
  });

  it('given an empty bulk, when bulk writing, then nothing is sent and all counts are zero', async () => {
    const { driver, collection } = stubDriver();
    expect(await collection.bulkWrite([])).toEqual({ insertedCount: 0, matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0 });
    expect(driver.bulkWrite).not.toHaveBeenCalled();
  });

  it('given an _id index spec, when creating it, then nothing is sent (MongoDB rejects unique on _id)', async () => {
    const { driver, collection } = stubDriver();
    await collection.createIndex({ keys: { _id: 1 }, unique: true });
    await collection.createIndex({ keys: { email: 1 }, unique: true, name: 'by_email' });
    await collection.createIndex({ keys: { status: 1, at: -1 } });
    expect(driver.createIndex.mock.calls).toEqual([
      [{ email: 1 }, { unique: true, name: 'by_email' }],
      [{ status: 1, at: -1 }, {}],
    ]);
  });

  it('given an upsert result, when updating, then upsertedId is a string and the update got a string _id on insert', async () => {
    const { driver, collection } = stubDriver();
    expect(await collection.updateOne({ key: 'k' }, { $set: { v: 1 } }, { upsert: true })).toEqual({
      matchedCount: 0,
      modifiedCount: 0,
      upsertedCount: 1,
      upsertedId: 'u',
    });
    expect(driver.updateOne).toHaveBeenCalledWith(
      { key: 'k' },
      { $set: { v: 1 }, $setOnInsert: { _id: expect.stringMatching(/^[0-9a-f]{24}$/) } },
      { upsert: true },
    );
  });

  it('given a closed store, when the collection is used, then it fails before reaching the driver', async () => {
    const driver = { find: jest.fn() };
    const collection = new MongoCollection('items', driver as unknown as DriverCollection<StoredDocument>, () => {
      throw new Error('MongoReadStore is closed');
    });
    await expect(collection.find({})).rejects.toThrow('closed');
    await expect(collection.bulkWrite([])).rejects.toThrow('closed');
    expect(driver.find).not.toHaveBeenCalled();
  });
});
