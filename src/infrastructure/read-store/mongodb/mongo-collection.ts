import { MongoBulkWriteError } from 'mongodb';
import type { Collection as DriverCollection, Filter as DriverFilter, FindOptions as DriverFindOptions } from 'mongodb';
import {
  BulkOperation,
  BulkWriteOptions,
  BulkWriteResult,
  Collection,
  DeleteResult,
  Doc,
  Filter,
  FindOptions,
  IndexSpec,
  Update,
  UpdateOptions,
  UpdateResult,
} from '../read-store.port';
import { bulkOutcome, driverWriteErrors, planBulkWrite } from './mongo-bulk-write';
import { prepareInsert, prepareReplacement, prepareUpdate, StoredDocument, upsertedIdOf } from './mongo-documents';
import { mapDriverError } from './mongo-errors';

/** The port's filters are MongoDB filters; the driver's type is stricter than the port's. */
type Query = DriverFilter<StoredDocument>;

/**
 * One read-model collection on MongoDB. Filters, sort, skip, limit and
 * projections go to the server as they are; documents and update values are
 * written in their JSON form (see mongo-documents.ts); driver errors with
 * code 11000 become the port's DuplicateKeyError.
 */
export class MongoCollection<T extends Doc = Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly driver: DriverCollection<StoredDocument>,
    private readonly assertOpen: () => void,
  ) {}

  async findOne(filter: Filter, options: Pick<FindOptions, 'projection' | 'sort'> = {}): Promise<T | null> {
    return this.run(async () => (await this.driver.findOne(filter as Query, findOptions(options))) as unknown as T | null);
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.run(async () => (await this.driver.find(filter as Query, findOptions(options)).toArray()) as unknown as T[]);
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    return this.run(() => this.driver.countDocuments(filter as Query));
  }

  async insertOne(document: T): Promise<void> {
    await this.run(async () => {
      await this.driver.insertOne(prepareInsert(document));
    });
  }

  async replaceOne(filter: Filter, replacement: T, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.run(async () => {
      const upsert = options.upsert === true;
      const result = await this.driver.replaceOne(filter as Query, prepareReplacement(filter, replacement, upsert), {
        upsert,
      });
      return updateResult(result);
    });
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.run(async () => {
      const upsert = options.upsert === true;
      return updateResult(await this.driver.updateOne(filter as Query, prepareUpdate(filter, update, upsert), { upsert }));
    });
  }

  async updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.run(async () => {
      const upsert = options.upsert === true;
      return updateResult(await this.driver.updateMany(filter as Query, prepareUpdate(filter, update, upsert), { upsert }));
    });
  }

  async deleteOne(filter: Filter): Promise<DeleteResult> {
    return this.run(async () => ({ deletedCount: (await this.driver.deleteOne(filter as Query)).deletedCount }));
  }

  async deleteMany(filter: Filter): Promise<DeleteResult> {
    return this.run(async () => ({ deletedCount: (await this.driver.deleteMany(filter as Query)).deletedCount }));
  }

  async bulkWrite(operations: BulkOperation[], options: BulkWriteOptions = {}): Promise<BulkWriteResult> {
    this.assertOpen();
    const plan = planBulkWrite(operations, options.ordered !== false);
    if (plan.operations.length === 0) return bulkOutcome(this.name, plan, null, []);
    try {
      const result = await this.driver.bulkWrite(
        plan.operations.map((planned) => planned.operation),
        { ordered: plan.ordered },
      );
      return bulkOutcome(this.name, plan, result, []);
    } catch (error) {
      if (error instanceof MongoBulkWriteError && error.result) {
        return bulkOutcome(this.name, plan, error.result, driverWriteErrors(error));
      }
      throw mapDriverError(this.name, error);
    }
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    await this.run(async () => {
      const fields = Object.keys(spec.keys ?? {});
      if (fields.length === 0) throw new TypeError('an index needs at least one key');
      // _id is always indexed and unique; MongoDB rejects `unique` on it
      if (fields.length === 1 && fields[0] === '_id') return;
      await this.driver.createIndex(spec.keys, {
        ...(spec.unique === true ? { unique: true } : {}),
        ...(spec.name !== undefined ? { name: spec.name } : {}),
      });
    });
  }

  /** Every call checks the store is open and maps the driver's errors to the port's. */
  private async run<R>(operation: () => Promise<R>): Promise<R> {
    this.assertOpen();
    try {
      return await operation();
    } catch (error) {
      throw mapDriverError(this.name, error);
    }
  }
}

function findOptions(options: FindOptions): DriverFindOptions {
  const driverOptions: DriverFindOptions = {};
  if (options.sort && Object.keys(options.sort).length > 0) driverOptions.sort = options.sort;
  if (options.projection && Object.keys(options.projection).length > 0) driverOptions.projection = options.projection;
  // MongoDB reads limit 0 as "no limit"
  if (options.skip) driverOptions.skip = options.skip;
  if (options.limit) driverOptions.limit = options.limit;
  return driverOptions;
}

function updateResult(result: { matchedCount: number; modifiedCount: number; upsertedCount: number; upsertedId: unknown }): UpdateResult {
  return {
    matchedCount: result.matchedCount,
    modifiedCount: result.modifiedCount,
    upsertedCount: result.upsertedCount,
    upsertedId: upsertedIdOf(result.upsertedId),
  };
}
