/**
 * The read store port: read models written and queried in MongoDB's query and
 * update language. The embedded adapter evaluates it with mingo; the MongoDB
 * adapter passes it through. Every adapter passes
 * test/contract/read-store.contract.ts unchanged.
 *
 * Never hand a client-supplied object to a filter or an update: build them
 * from typed values (operator injection).
 */

export type Doc = { _id: string; [field: string]: unknown };
export type Filter = Record<string, unknown>;
/** An update document made of operators ($set, $unset, $inc, $push, $pull, $addToSet, $setOnInsert, $max, $min). */
export type Update = Record<string, unknown>;
export type SortSpec = Record<string, 1 | -1>;
export type Projection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  projection?: Projection;
}

export interface UpdateOptions {
  upsert?: boolean;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
  upsertedId: string | null;
}

export interface DeleteResult {
  deletedCount: number;
}

export type BulkOperation =
  | { insertOne: { document: Doc } }
  | { updateOne: { filter: Filter; update: Update; upsert?: boolean } }
  | { updateMany: { filter: Filter; update: Update; upsert?: boolean } }
  | { replaceOne: { filter: Filter; replacement: Doc; upsert?: boolean } }
  | { deleteOne: { filter: Filter } }
  | { deleteMany: { filter: Filter } };

export interface BulkWriteOptions {
  /** default true: stop at the first error. false: run all, then report the errors together. */
  ordered?: boolean;
}

export interface BulkWriteResult {
  insertedCount: number;
  matchedCount: number;
  modifiedCount: number;
  deletedCount: number;
  upsertedCount: number;
}

export interface IndexSpec {
  /** field paths, 1 ascending, -1 descending */
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  name?: string;
}

export interface Collection<T extends Doc = Doc> {
  readonly name: string;
  findOne(filter: Filter, options?: Pick<FindOptions, 'projection' | 'sort'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  countDocuments(filter?: Filter): Promise<number>;
  /** Raises DuplicateKeyError on an existing _id or a unique-index clash. */
  insertOne(document: T): Promise<void>;
  replaceOne(filter: Filter, replacement: T, options?: UpdateOptions): Promise<UpdateResult>;
  /**
   * Like MongoDB: with upsert and no match, inserts a document built from the
   * filter's equality fields plus the update; if that clashes with an existing
   * _id (because the filter had extra conditions), raises DuplicateKeyError.
   */
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  deleteOne(filter: Filter): Promise<DeleteResult>;
  deleteMany(filter: Filter): Promise<DeleteResult>;
  bulkWrite(operations: BulkOperation[], options?: BulkWriteOptions): Promise<BulkWriteResult>;
  createIndex(spec: IndexSpec): Promise<void>;
}

/** One write a projection queued while applying a page of events. */
export interface QueuedWrite {
  collection: string;
  operation: BulkOperation;
  /**
   * An upsert that clashes on `_id` means "this event was already applied"
   * (the position guard of applyOnce filtered the document out): not an error.
   */
  duplicateIdMeansApplied?: boolean;
}

export interface ReadStore {
  collection<T extends Doc = Doc>(name: string): Collection<T>;
  /**
   * Applies one page of projection writes, then stores the checkpoints: the
   * projection engine's single round per page. Each document sees its writes
   * in queue order; a write that does not name one `_id` (updateMany,
   * deleteMany, a filter on other fields) sees every write queued before it
   * and none after. On failure it throws the first real error and stores no
   * checkpoint; some writes may have been applied, so the caller retries the
   * page (projection writes are idempotent).
   */
  commit(writes: readonly QueuedWrite[], checkpoints: ReadonlyMap<string, number>): Promise<void>;
  /** Removes the collection's documents and indexes. */
  dropCollection(name: string): Promise<void>;
  /** Checkpoints live with the read models they describe. null = never set. */
  getCheckpoint(name: string): Promise<number | null>;
  setCheckpoint(name: string, position: number): Promise<void>;
  /**
   * Bulk-loads documents into a collection (a rebuild's last step: the
   * collection was just dropped). Duplicate ids fail like insertMany's.
   */
  load(collection: string, documents: readonly Doc[]): Promise<void>;
  /** Several checkpoints in one read (missing names are absent from the map). */
  getCheckpoints(names: readonly string[]): Promise<Map<string, number>>;
  deleteCheckpoint(name: string): Promise<void>;
  /** Makes every write so far durable in the adapter's backing storage. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Same meaning as MongoDB's E11000. */
export class DuplicateKeyError extends Error {
  readonly code = 11000;
  constructor(
    readonly collection: string,
    readonly key: Record<string, unknown>,
  ) {
    super(`E11000 duplicate key error collection: ${collection} dup key: ${JSON.stringify(key)}`);
    this.name = 'DuplicateKeyError';
  }
}

/** A bulkWrite in which some operations failed; the others were applied. */
export class BulkWriteError extends Error {
  constructor(
    readonly result: BulkWriteResult,
    readonly writeErrors: { index: number; error: Error }[],
  ) {
    super(`bulkWrite: ${writeErrors.length} operation(s) failed: ${writeErrors[0]?.error.message ?? ''}`);
    this.name = 'BulkWriteError';
  }
}

export const READ_STORE = Symbol('READ_STORE');
