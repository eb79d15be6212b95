/**
 * ReadStore.commit on MongoDB: a page of projection writes in a few round
 * trips, whatever the page holds.
 *
 * Per run of writes that each name one `_id` (nearly all of them), per
 * collection: one `find({_id: {$in}})` fetches the documents the writes
 * touch, the writes are applied to them in memory in queue order (by the
 * embedded store's evaluator, so both adapters compute the same documents),
 * and one unordered `bulkWrite` stores each changed document once (a
 * replacement, or a delete). Collections go in parallel; then one bulkWrite
 * stores every checkpoint. A hot document (a counter every event bumps)
 * costs one write per page, not one round trip per event.
 *
 * A write without a single `_id` target (updateMany, deleteMany, a filter on
 * other fields) is a barrier: what is queued before it is stored first, then
 * it runs on the server, then the next run starts.
 *
 * One process applies a projection at a time (the API node with inline
 * projections, or the worker): the in-memory step assumes no other writer
 * changes the same documents between the fetch and the write. A replaced
 * document that carries applyOnce's `_pos` is only written over an older
 * version, so a second writer replaying the same events cannot move it back.
 */
import type { AnyBulkWriteOperation, Db } from 'mongodb';
import { MongoBulkWriteError } from 'mongodb';
import { EmbeddedCollection } from '../embedded/embedded-collection';
import { type BulkOperation, type Doc, DuplicateKeyError, type QueuedWrite } from '../read-store.port';
import { MongoCollection } from './mongo-collection';
import type { StoredDocument } from './mongo-documents';
import { driverWriteErrors } from './mongo-bulk-write';
import { mapDriverError, toDuplicateKeyError, isDuplicateKeyCode } from './mongo-errors';

/** The one `_id` a write touches, or null when it is a barrier. */
export function singleTarget(operation: BulkOperation): string | null {
  let id: unknown;
  if ('updateOne' in operation) id = operation.updateOne.filter._id;
  else if ('replaceOne' in operation) id = operation.replaceOne.filter._id ?? operation.replaceOne.replacement._id;
  else if ('deleteOne' in operation) id = operation.deleteOne.filter._id;
  else if ('insertOne' in operation) id = operation.insertOne.document._id;
  return typeof id === 'string' ? id : null;
}

export async function commitWrites(db: Db, writes: readonly QueuedWrite[]): Promise<void> {
  let run: QueuedWrite[] = [];
  for (const write of writes) {
    if (singleTarget(write.operation) !== null) {
      run.push(write);
      continue;
    }
    await commitRun(db, run);
    run = [];
    await commitBarrier(db, write);
  }
  await commitRun(db, run);
}

async function commitRun(db: Db, writes: readonly QueuedWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const byCollection = new Map<string, QueuedWrite[]>();
  for (const write of writes) {
    let list = byCollection.get(write.collection);
    if (!list) byCollection.set(write.collection, (list = []));
    list.push(write);
  }
  await Promise.all([...byCollection].map(([name, list]) => commitCollection(db, name, list)));
}

async function commitCollection(db: Db, name: string, writes: readonly QueuedWrite[]): Promise<void> {
  const driver = db.collection<StoredDocument>(name);
  const ids = [...new Set(writes.map((write) => singleTarget(write.operation) as string))];
  const existing = await driver.find({ _id: { $in: ids } }).toArray();

  const changed = new Set<string>();
  const scratch = new EmbeddedCollection(name, {
    assertOpen: () => undefined,
    documentChanged: (_collection, id) => changed.add(id),
    indexesChanged: () => undefined,
  });
  for (const doc of existing) scratch.load(doc as Doc);
  for (const write of writes) {
    try {
      scratch.applyQueued(write.operation);
    } catch (error) {
      const applied = write.duplicateIdMeansApplied && error instanceof DuplicateKeyError && '_id' in error.key;
      if (!applied) throw error;
    }
  }

  const operations: AnyBulkWriteOperation<StoredDocument>[] = [];
  for (const id of changed) {
    const doc = scratch.stored(id);
    if (!doc) {
      operations.push({ deleteOne: { filter: { _id: id } } });
    } else if (typeof doc._pos === 'number') {
      // never over a newer version of the document (another writer replaying ahead)
      operations.push({ replaceOne: { filter: { _id: id, _pos: { $not: { $gt: doc._pos } } }, replacement: doc as StoredDocument, upsert: true } });
    } else {
      operations.push({ replaceOne: { filter: { _id: id }, replacement: doc as StoredDocument, upsert: true } });
    }
  }
  if (operations.length === 0) return;
  try {
    await driver.bulkWrite(operations, { ordered: false });
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError)) throw mapDriverError(name, error);
    for (const failure of driverWriteErrors(error)) {
      const operation = operations[failure.index];
      // a newer version is stored already: the guarded replacement fell through to an insert that clashed on _id
      const newerKept = isDuplicateKeyCode(failure) && 'replaceOne' in operation && '_pos' in operation.replaceOne.filter;
      if (newerKept) continue;
      throw isDuplicateKeyCode(failure) ? toDuplicateKeyError(name, failure) : new Error(failure.errmsg ?? `write failed (code ${String(failure.code)})`);
    }
  }
}

async function commitBarrier(db: Db, write: QueuedWrite): Promise<void> {
  // through the adapter's own collection, so preparation and error mapping are the usual ones
  const collection = new MongoCollection(write.collection, db.collection<StoredDocument>(write.collection), () => undefined);
  await collection.bulkWrite([write.operation], { ordered: true });
}
