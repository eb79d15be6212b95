import {
  BulkOperation,
  BulkWriteError,
  BulkWriteResult,
  DeleteResult,
  Doc,
  Filter,
  Update,
  UpdateResult,
} from '../read-store.port';

/** The single-document primitives a bulk write is made of. */
export interface BulkTarget {
  insert(doc: Doc): void;
  update(filter: Filter, update: Update, upsert: boolean, many: boolean): UpdateResult;
  replace(filter: Filter, replacement: Doc, upsert: boolean): UpdateResult;
  remove(filter: Filter, many: boolean): DeleteResult;
}

/**
 * Runs the operations one after the other, as MongoDB does (no transaction):
 * ordered stops at the first failure, unordered carries on; either way the
 * operations that succeeded stay applied and are counted in the error's result.
 */
export function runBulkWrite(operations: BulkOperation[], ordered: boolean, target: BulkTarget): BulkWriteResult {
  const result: BulkWriteResult = { insertedCount: 0, matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0 };
  const writeErrors: { index: number; error: Error }[] = [];

  const addUpdate = (outcome: UpdateResult): void => {
    result.matchedCount += outcome.matchedCount;
    result.modifiedCount += outcome.modifiedCount;
    result.upsertedCount += outcome.upsertedCount;
  };

  for (const [index, operation] of operations.entries()) {
    try {
      if ('insertOne' in operation) {
        target.insert(operation.insertOne.document);
        result.insertedCount++;
      } else if ('updateOne' in operation) {
        const { filter, update, upsert } = operation.updateOne;
        addUpdate(target.update(filter, update, upsert === true, false));
      } else if ('updateMany' in operation) {
        const { filter, update, upsert } = operation.updateMany;
        addUpdate(target.update(filter, update, upsert === true, true));
      } else if ('replaceOne' in operation) {
        const { filter, replacement, upsert } = operation.replaceOne;
        addUpdate(target.replace(filter, replacement, upsert === true));
      } else if ('deleteOne' in operation) {
        result.deletedCount += target.remove(operation.deleteOne.filter, false).deletedCount;
      } else if ('deleteMany' in operation) {
        result.deletedCount += target.remove(operation.deleteMany.filter, true).deletedCount;
      } else {
        throw new TypeError(`Unknown bulk operation: ${Object.keys(operation as object).join(', ')}`);
      }
    } catch (error) {
      writeErrors.push({ index, error: error instanceof Error ? error : new Error(String(error)) });
      if (ordered) break;
    }
  }

  if (writeErrors.length > 0) throw new BulkWriteError(result, writeErrors);
  return result;
}
