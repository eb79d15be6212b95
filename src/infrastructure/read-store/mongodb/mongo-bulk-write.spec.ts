import { BulkOperation, BulkWriteError, DuplicateKeyError } from '../read-store.port';
import { bulkOutcome, driverWriteErrors, planBulkWrite } from './mongo-bulk-write';

const NO_COUNTS = { matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0 };
const dupId = (id: string) => ({ code: 11000, errmsg: `E11000 duplicate key error collection: db.c index: _id_ dup key: { _id: "${id}" }` });

function outcomeError(run: () => unknown): BulkWriteError {
  try {
    run();
  } catch (error) {
    if (error instanceof BulkWriteError) return error;
    throw error;
  }
  throw new Error('expected a BulkWriteError');
}

describe('MongoDB bulkWrite mapping', () => {
  describe('planBulkWrite', () => {
    it('given valid operations, when planned, then each is prepared for the driver with its index', () => {
      const plan = planBulkWrite(
        [
          { insertOne: { document: { _id: 'a', at: new Date(0) } } },
          { updateOne: { filter: { key: 'k' }, update: { $set: { v: 1 } }, upsert: true } },
          { deleteMany: { filter: { old: true } } },
        ],
        true,
      );
      expect(plan.rejected).toEqual([]);
      expect(plan.operations.map((p) => [p.index, p.kind])).toEqual([
        [0, 'insertOne'],
        [1, 'updateOne'],
        [2, 'deleteMany'],
      ]);
      expect(plan.operations[0].operation).toEqual({ insertOne: { document: { _id: 'a', at: '1970-01-01T00:00:00.000Z' } } });
      expect(plan.operations[1].operation).toEqual({
        updateOne: { filter: { key: 'k' }, update: { $set: { v: 1 }, $setOnInsert: { _id: expect.any(String) } }, upsert: true },
      });
    });

    it('given an ordered bulk with an invalid operation, when planned, then nothing after it is planned', () => {
      const plan = planBulkWrite(
        [
          { insertOne: { document: { _id: 'a' } } },
          { updateOne: { filter: { _id: 'a' }, update: { n: 1 } } },
          { insertOne: { document: { _id: 'b' } } },
        ],
        true,
      );
      expect(plan.operations.map((p) => p.index)).toEqual([0]);
      expect(plan.rejected.map((r) => r.index)).toEqual([1]);
      expect(plan.rejected[0].error).toBeInstanceOf(TypeError);
    });

    it('given an unordered bulk with invalid operations, when planned, then all valid ones are planned and the others rejected', () => {
      const plan = planBulkWrite(
        [
          { insertOne: { document: { n: 1 } as never } },
          { insertOne: { document: { _id: 'b' } } },
          { unknownOp: {} } as unknown as BulkOperation,
          { deleteOne: { filter: { _id: 'b' } } },
        ],
        false,
      );
      expect(plan.operations.map((p) => p.index)).toEqual([1, 3]);
      expect(plan.rejected.map((r) => r.index)).toEqual([0, 2]);
    });
  });

  describe('bulkOutcome', () => {
    it('given a successful run, when mapped, then the counts are the driver counts and inserts are counted from the plan', () => {
      const plan = planBulkWrite(
        [{ insertOne: { document: { _id: 'a' } } }, { updateOne: { filter: { _id: 'b' }, update: { $inc: { n: 1 } } } }],
        true,
      );
      expect(bulkOutcome('c', plan, { matchedCount: 1, modifiedCount: 1, deletedCount: 0, upsertedCount: 0 }, [])).toEqual({
        insertedCount: 1,
        matchedCount: 1,
        modifiedCount: 1,
        deletedCount: 0,
        upsertedCount: 0,
      });
    });

    it('given an ordered run failing at a duplicate, when mapped, then only inserts before it count and the error is a DuplicateKeyError', () => {
      const plan = planBulkWrite(
        [{ insertOne: { document: { _id: 'b' } } }, { insertOne: { document: { _id: 'a' } } }, { insertOne: { document: { _id: 'c' } } }],
        true,
      );
      // mongo-java-server reports n = 3 for this batch: the adapter does not trust it
      const error = outcomeError(() => bulkOutcome('c', plan, NO_COUNTS, [{ index: 1, ...dupId('a') }]));
      expect(error.result.insertedCount).toBe(1);
      expect(error.writeErrors.map((e) => e.index)).toEqual([1]);
      expect(error.writeErrors[0].error).toBeInstanceOf(DuplicateKeyError);
      expect((error.writeErrors[0].error as DuplicateKeyError).key).toEqual({ _id: 'a' });
    });

    it('given an unordered run with failures, when mapped, then every other insert counts and every failure is reported', () => {
      const plan = planBulkWrite(
        [
          { insertOne: { document: { _id: 'a' } } },
          { insertOne: { document: { _id: 'b' } } },
          { insertOne: { document: { _id: 'b' } } },
          { updateOne: { filter: { _id: 'a' }, update: { $set: { n: 1 } } } },
        ],
        false,
      );
      const error = outcomeError(() =>
        bulkOutcome('c', plan, { ...NO_COUNTS, matchedCount: 1, modifiedCount: 1 }, [
          { index: 0, ...dupId('a') },
          { index: 2, ...dupId('b') },
        ]),
      );
      expect(error.result).toEqual({ insertedCount: 1, matchedCount: 1, modifiedCount: 1, deletedCount: 0, upsertedCount: 0 });
      expect(error.writeErrors.map((e) => e.index)).toEqual([0, 2]);
      expect(error.writeErrors.every((e) => e.error instanceof DuplicateKeyError)).toBe(true);
    });

    it('given rejected operations, when mapped, then driver indexes point back into the caller list, merged in order', () => {
      const plan = planBulkWrite(
        [
          { updateOne: { filter: { _id: 'a' }, update: { n: 1 } } },
          { insertOne: { document: { _id: 'a' } } },
          { insertOne: { document: { _id: 'b' } } },
        ],
        false,
      );
      // the driver saw [insert a, insert b]; its index 0 is the caller's index 1
      const error = outcomeError(() => bulkOutcome('c', plan, NO_COUNTS, [{ index: 0, ...dupId('a') }]));
      expect(error.writeErrors.map((e) => [e.index, e.error.constructor.name])).toEqual([
        [0, 'TypeError'],
        [1, 'DuplicateKeyError'],
      ]);
      expect(error.result.insertedCount).toBe(1);
    });

    it('given an ordered bulk with a rejected operation and an earlier server failure, when mapped, then only the server failure is reported', () => {
      const plan = planBulkWrite(
        [{ insertOne: { document: { _id: 'a' } } }, { updateOne: { filter: { _id: 'a' }, update: { n: 1 } } }],
        true,
      );
      const error = outcomeError(() => bulkOutcome('c', plan, NO_COUNTS, [{ index: 0, ...dupId('a') }]));
      expect(error.writeErrors.map((e) => e.index)).toEqual([0]);
    });

    it('given only rejected operations, when mapped without calling the driver, then they are reported with zero counts', () => {
      const plan = planBulkWrite([{ replaceOne: { filter: { _id: 'a' }, replacement: { _id: 'a', $inc: { n: 1 } } as never } }], true);
      const error = outcomeError(() => bulkOutcome('c', plan, null, []));
      expect(error.result).toEqual({ insertedCount: 0, matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0 });
      expect(error.writeErrors[0].error).toBeInstanceOf(TypeError);
    });

    it('given a failure other than a duplicate, when mapped, then it keeps the server message and code', () => {
      const plan = planBulkWrite([{ updateOne: { filter: { _id: 'a' }, update: { $inc: { s: 1 } } } }], true);
      const error = outcomeError(() => bulkOutcome('c', plan, NO_COUNTS, [{ index: 0, code: 14, errmsg: 'Cannot apply $inc to a value of non-numeric type' }]));
      expect(error.writeErrors[0].error.message).toBe('Cannot apply $inc to a value of non-numeric type');
      expect((error.writeErrors[0].error as Error & { code?: number }).code).toBe(14);
    });
  });

  describe('driverWriteErrors', () => {
    it('given one write error or a list, when read, then a list of index, code and message comes back', () => {
      expect(driverWriteErrors({ writeErrors: { index: 2, code: 11000, errmsg: 'm' } })).toEqual([{ index: 2, code: 11000, errmsg: 'm' }]);
      expect(driverWriteErrors({ writeErrors: [{ index: 0, code: 1 }, { index: 1 }] })).toEqual([
        { index: 0, code: 1, errmsg: undefined },
        { index: 1, code: undefined, errmsg: undefined },
      ]);
      expect(driverWriteErrors({})).toEqual([]);
    });
  });
});
