import type { AnyBulkWriteOperation } from 'mongodb';
import { BulkOperation, BulkWriteError, BulkWriteResult } from '../read-store.port';
import { isDuplicateKeyCode, toDuplicateKeyError } from './mongo-errors';
import { prepareInsert, prepareReplacement, prepareUpdate, StoredDocument } from './mongo-documents';

/**
 * The pure half of bulkWrite: which operations go to the driver (validated
 * and prepared like their single-operation counterparts), and how the
 * driver's outcome becomes the port's result or BulkWriteError, with every
 * index pointing into the caller's operation list.
 */

export interface PlannedOperation {
  /** position in the caller's list */
  index: number;
  kind: keyof BulkOperationKinds;
  operation: AnyBulkWriteOperation<StoredDocument>;
}

type BulkOperationKinds = {
  insertOne: unknown;
  updateOne: unknown;
  updateMany: unknown;
  replaceOne: unknown;
  deleteOne: unknown;
  deleteMany: unknown;
};

export interface BulkPlan {
  ordered: boolean;
  /** what is sent to the driver, in order */
  operations: PlannedOperation[];
  /** operations rejected before anything was sent (ordered: at most one, and nothing after it is planned) */
  rejected: { index: number; error: Error }[];
}

function prepare(operation: BulkOperation): { kind: PlannedOperation['kind']; operation: AnyBulkWriteOperation<StoredDocument> } {
  if (typeof operation !== 'object' || operation === null) throw new TypeError('Unknown bulk operation');
  if ('insertOne' in operation) {
    return { kind: 'insertOne', operation: { insertOne: { document: prepareInsert(operation.insertOne.document) } } };
  }
  if ('updateOne' in operation || 'updateMany' in operation) {
    const kind = 'updateOne' in operation ? 'updateOne' : 'updateMany';
    const { filter, update, upsert } = 'updateOne' in operation ? operation.updateOne : operation.updateMany;
    const prepared = { filter, update: prepareUpdate(filter, update, upsert === true), upsert: upsert === true };
    return { kind, operation: kind === 'updateOne' ? { updateOne: prepared } : { updateMany: prepared } };
  }
  if ('replaceOne' in operation) {
    const { filter, replacement, upsert } = operation.replaceOne;
    return {
      kind: 'replaceOne',
      operation: { replaceOne: { filter, replacement: prepareReplacement(filter, replacement, upsert === true), upsert: upsert === true } },
    };
  }
  if ('deleteOne' in operation) return { kind: 'deleteOne', operation: { deleteOne: { filter: operation.deleteOne.filter } } };
  if ('deleteMany' in operation) return { kind: 'deleteMany', operation: { deleteMany: { filter: operation.deleteMany.filter } } };
  throw new TypeError(`Unknown bulk operation: ${Object.keys(operation as object).join(', ')}`);
}

export function planBulkWrite(operations: BulkOperation[], ordered: boolean): BulkPlan {
  const plan: BulkPlan = { ordered, operations: [], rejected: [] };
  for (const [index, operation] of operations.entries()) {
    try {
      plan.operations.push({ index, ...prepare(operation) });
    } catch (error) {
      plan.rejected.push({ index, error: error instanceof Error ? error : new Error(String(error)) });
      if (ordered) break; // like the embedded store: an ordered bulk stops at its first failure
    }
  }
  return plan;
}

/** The parts of the driver's BulkWriteResult (or of a MongoBulkWriteError's result) used here. */
export interface DriverBulkCounts {
  matchedCount: number;
  modifiedCount: number;
  deletedCount: number;
  upsertedCount: number;
}

/** The parts of the driver's WriteError used here; `index` is a position in the plan's operations. */
export interface DriverWriteError {
  index: number;
  code?: number;
  errmsg?: string;
}

/**
 * The port's outcome of a planned bulk write. `counts` is null when the
 * driver was not called (nothing to send). Throws BulkWriteError when any
 * operation failed, before or at the server.
 *
 * insertedCount is counted here, from the operations that did not fail:
 * mongo-java-server reports every document of an insert batch as inserted,
 * the failed ones included. Ordered: everything before the first failure ran.
 */
export function bulkOutcome(
  collection: string,
  plan: BulkPlan,
  counts: DriverBulkCounts | null,
  driverErrors: DriverWriteError[],
): BulkWriteResult {
  const failedPositions = new Set(driverErrors.map((error) => error.index));
  const firstFailure = plan.ordered && driverErrors.length > 0 ? Math.min(...failedPositions) : Infinity;
  const insertedCount = plan.operations.filter(
    (planned, position) => planned.kind === 'insertOne' && position < firstFailure && !failedPositions.has(position),
  ).length;

  const result: BulkWriteResult = {
    insertedCount,
    matchedCount: counts?.matchedCount ?? 0,
    modifiedCount: counts?.modifiedCount ?? 0,
    deletedCount: counts?.deletedCount ?? 0,
    upsertedCount: counts?.upsertedCount ?? 0,
  };

  const writeErrors = [
    ...driverErrors.map((error) => ({
      index: plan.operations[error.index]?.index ?? error.index,
      error: driverWriteErrorToError(collection, error),
    })),
    // ordered: a server failure stops the bulk before the rejected operation would have run
    ...(plan.ordered && driverErrors.length > 0 ? [] : plan.rejected),
  ].sort((a, b) => a.index - b.index);

  if (writeErrors.length > 0) throw new BulkWriteError(result, writeErrors);
  return result;
}

function driverWriteErrorToError(collection: string, error: DriverWriteError): Error {
  if (isDuplicateKeyCode(error)) return toDuplicateKeyError(collection, error);
  const failure = new Error(error.errmsg ?? `write failed (code ${error.code ?? 'unknown'})`);
  (failure as Error & { code?: number }).code = error.code;
  return failure;
}

/** The driver's writeErrors, whatever shape it hands them in (one or many). */
export function driverWriteErrors(error: { writeErrors?: unknown }): DriverWriteError[] {
  const raw = error.writeErrors;
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list.map((entry: { index?: unknown; code?: unknown; errmsg?: unknown }) => ({
    index: typeof entry.index === 'number' ? entry.index : 0,
    code: typeof entry.code === 'number' ? entry.code : undefined,
    errmsg: typeof entry.errmsg === 'string' ? entry.errmsg : undefined,
  }));
}
