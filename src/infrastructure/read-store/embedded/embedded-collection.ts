import { Context, ProcessingMode } from 'mingo/core';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import { Query } from 'mingo/query';
import { update as applyModifier } from 'mingo/updater';
import {
  BulkOperation,
  BulkWriteOptions,
  BulkWriteResult,
  Collection,
  DeleteResult,
  Doc,
  DuplicateKeyError,
  Filter,
  FindOptions,
  IndexSpec,
  Update,
  UpdateOptions,
  UpdateResult,
} from '../read-store.port';
import { runBulkWrite } from './embedded-bulk-write';
import { evaluate, fastUpdate, modifiedPaths, touches, UNDECIDED, UNSUPPORTED } from './fast-paths';
import { EmbeddedIndex, sortDocuments } from './embedded-index';
import {
  assertReplacement,
  assertStringId,
  copyDocument,
  generateId,
  isOperatorExpression,
  splitUpdate,
  toJsonForm,
  upsertSeed,
} from './document-utils';

/** What the owning store needs to hear about, to persist it later. */
export interface CollectionObserver {
  assertOpen(): void;
  documentChanged(collection: string, id: string): void;
  indexesChanged(collection: string): void;
}

/**
 * `$where` / `$function` would run strings as code: never in a read store.
 * The context holds only the query and projection operators: mingo copies the
 * context's operator tables on every query, and its default context (all
 * ~250 operators) made that copy the bulk of a projection's CPU time.
 */
const QUERY_OPTIONS = {
  scriptEnabled: false,
  context: Context.init({ query: queryOperators, projection: projectionOperators }),
};

function usesPositionalPath(modifier: Update): boolean {
  return Object.values(modifier).some(
    (fields) => fields !== null && typeof fields === 'object' && Object.keys(fields).some((path) => path.includes('.$')),
  );
}

const PROJECTING_QUERY_OPTIONS = { ...QUERY_OPTIONS, processingMode: ProcessingMode.CLONE_INPUT };

/** The ids an `_id` condition accepts: a string, `{ $eq: string }` or `{ $in: [strings] }`; null otherwise. */
function idValues(condition: unknown): string[] | null {
  if (typeof condition === 'string') return [condition];
  if (isOperatorExpression(condition) && Object.keys(condition).length === 1) {
    if (typeof condition.$eq === 'string') return [condition.$eq];
    const values = condition.$in;
    if (Array.isArray(values) && values.every((value) => typeof value === 'string')) return values as string[];
  }
  return null;
}

const NOTHING_UPDATED: UpdateResult = { matchedCount: 0, modifiedCount: 0, upsertedCount: 0, upsertedId: null };

/**
 * One collection held in memory: documents by _id (in their JSON form) plus
 * secondary indexes. Every operation runs synchronously to completion, so
 * each one is atomic with respect to the others, like a single-document
 * write in MongoDB.
 */
export class EmbeddedCollection<T extends Doc = Doc> implements Collection<T> {
  private readonly docs = new Map<string, Doc>();
  private readonly indexes = new Map<string, EmbeddedIndex>();

  constructor(
    readonly name: string,
    private readonly observer: CollectionObserver,
  ) {}

  async findOne(filter: Filter, options: Pick<FindOptions, 'projection' | 'sort'> = {}): Promise<T | null> {
    return (await this.find(filter, { ...options, limit: 1 }))[0] ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    this.observer.assertOpen();
    const projection = options.projection ?? {};
    const sorted = options.sort !== undefined && Object.keys(options.sort).length > 0;
    if (!sorted && Object.keys(projection).length === 0) {
      // no order and no projection to apply (most lookups): the fast filter, no query cursor
      const skip = options.skip && options.skip > 0 ? options.skip : 0;
      const found = this.matching(filter, options.limit ? skip + options.limit : undefined);
      return found.slice(skip).map((doc) => copyDocument(doc) as T);
    }
    // mingo applies an exclusion on a nested path to its input: give it copies then.
    const queryOptions = Object.keys(projection).length > 0 ? PROJECTING_QUERY_OPTIONS : QUERY_OPTIONS;
    const ordered = this.orderedRead(filter, options);
    if (ordered) {
      const found = Object.keys(projection).length > 0 ? new Query({}, queryOptions).find<Doc>(ordered, projection).all() : ordered;
      return found.map((doc) => copyDocument(doc) as T);
    }
    const narrow = this.candidateSet(filter);
    if (narrow && Object.keys(projection).length === 0) {
      // a few candidates (by _id, a hash lookup or an index window): test, keep the page's best, copy only those
      const matches = narrow.exact ? narrow.docs : narrow.docs.filter(this.tester(filter));
      const skip = options.skip && options.skip > 0 ? options.skip : 0;
      const sortedDocs = sortDocuments(matches, options.sort!, options.limit ? skip + options.limit : undefined);
      if (sortedDocs) return sortedDocs.slice(skip).map((doc) => copyDocument(doc) as T);
    }
    const cursor = new Query(filter, queryOptions).find<Doc>(narrow?.docs ?? [...this.docs.values()], projection);
    if (options.sort && Object.keys(options.sort).length > 0) cursor.sort(options.sort);
    if (options.skip) cursor.skip(options.skip);
    // MongoDB reads limit 0 as "no limit"
    if (options.limit) cursor.limit(options.limit);
    return cursor.all().map((doc) => copyDocument(doc) as T);
  }

  /**
   * sort + limit served by walking an index in order, testing each document
   * with the filter and stopping after skip + limit matches; null when no
   * index fits (see EmbeddedIndex.orderedPlan) and the caller scans and sorts.
   * Documents tying on every index key come in _id order.
   */
  private orderedRead(filter: Filter, options: FindOptions): Doc[] | null {
    const { sort, limit } = options;
    if (!sort || !limit || limit <= 0) return null;
    const skip = options.skip && options.skip > 0 ? options.skip : 0;
    // an index walk of the filter's own equalities first: it stops at the page, whatever the other indexes
    const covering = [...this.indexes.values()].filter((index) => index.orderedPlan(filter, sort)?.covered);
    for (const index of new Set([...covering, ...this.indexes.values()])) {
      const plan = index.orderedPlan(filter, sort);
      if (!plan || !index.orderable(() => this.docs.values())) continue;
      // a narrower candidate set (by _id or a hash lookup) is cheaper to sort than a long walk;
      // a walk of the filter's own equalities stops at the page
      if (!plan.covered) {
        const narrow = this.narrowCandidates(filter);
        if (narrow && narrow.length < index.rangeSize(plan)) return null;
      }
      const query = new Query(filter, QUERY_OPTIONS);
      const found: Doc[] = [];
      for (const id of index.walk(plan)) {
        const doc = this.docs.get(id);
        if (!doc || !query.test(doc)) continue;
        found.push(doc);
        if (found.length >= skip + limit) break;
      }
      return found.slice(skip);
    }
    return null;
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    this.observer.assertOpen();
    // a filter made only of an index's equalities (and a range on the next key): counted from the index
    for (const index of this.indexes.values()) {
      const window = index.window(filter);
      if (window?.covered && index.orderable(() => this.docs.values())) return index.windowSize(window);
    }
    return this.matching(filter).length;
  }

  async insertOne(document: T): Promise<void> {
    this.observer.assertOpen();
    this.insert(toJsonForm(document));
  }

  async replaceOne(filter: Filter, replacement: T, options: UpdateOptions = {}): Promise<UpdateResult> {
    this.observer.assertOpen();
    return this.replace(filter, replacement, options.upsert === true);
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    this.observer.assertOpen();
    return this.update(filter, update, options.upsert === true, false);
  }

  async updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    this.observer.assertOpen();
    return this.update(filter, update, options.upsert === true, true);
  }

  async deleteOne(filter: Filter): Promise<DeleteResult> {
    this.observer.assertOpen();
    return this.remove(this.matching(filter, 1));
  }

  async deleteMany(filter: Filter): Promise<DeleteResult> {
    this.observer.assertOpen();
    return this.remove(this.matching(filter));
  }

  async bulkWrite(operations: BulkOperation[], options: BulkWriteOptions = {}): Promise<BulkWriteResult> {
    this.observer.assertOpen();
    return runBulkWrite(operations, options.ordered !== false, {
      insert: (doc) => this.insert(toJsonForm(doc as T)),
      update: (filter, update, upsert, many) => this.update(filter, update, upsert, many),
      replace: (filter, replacement, upsert) => this.replace(filter, replacement as T, upsert),
      remove: (filter, many) => this.remove(this.matching(filter, many ? undefined : 1)),
    });
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    this.observer.assertOpen();
    if (this.addIndex(spec)) this.observer.indexesChanged(this.name);
  }

  // ---- used by the store (loading, persisting, dropping, committing) ----

  /** One projection write, synchronously (ReadStore.commit); throws what the single operation would. */
  applyQueued(operation: BulkOperation): void {
    if ('updateOne' in operation) {
      const { filter, update, upsert } = operation.updateOne;
      this.update(filter, update, upsert === true, false);
    } else if ('replaceOne' in operation) {
      const { filter, replacement, upsert } = operation.replaceOne;
      this.replace(filter, replacement as T, upsert === true);
    } else if ('insertOne' in operation) {
      this.insert(toJsonForm(operation.insertOne.document));
    } else if ('deleteOne' in operation) {
      this.remove(this.matching(operation.deleteOne.filter, 1));
    } else if ('updateMany' in operation) {
      const { filter, update, upsert } = operation.updateMany;
      this.update(filter, update, upsert === true, true);
    } else if ('deleteMany' in operation) {
      this.remove(this.matching(operation.deleteMany.filter));
    } else {
      throw new TypeError(`Unknown bulk operation: ${Object.keys(operation as object).join(', ')}`);
    }
  }

  /** Restores a persisted document without marking it dirty. */
  load(doc: Doc): void {
    this.docs.set(doc._id, doc);
  }

  /** Rebuilds a persisted index definition (after the documents were loaded). */
  loadIndex(spec: IndexSpec): void {
    this.addIndex(spec);
  }

  /** Every stored document (not copies). */
  storedDocuments(): Doc[] {
    return [...this.docs.values()];
  }

  /** The stored document (not a copy), for persisting. */
  stored(id: string): Doc | undefined {
    return this.docs.get(id);
  }

  indexSpecs(): IndexSpec[] {
    return [...this.indexes.values()].map((index) => ({ ...index.spec, name: index.name }));
  }

  clear(): void {
    this.docs.clear();
    this.indexes.clear();
  }

  // ---- internals ----

  /** false when an identical index already exists */
  private addIndex(spec: IndexSpec): boolean {
    const index = new EmbeddedIndex(spec);
    if (index.fields.length === 1 && index.fields[0] === '_id') return false; // _id is always unique
    const existing = this.indexes.get(index.name) ?? [...this.indexes.values()].find((i) => i.sameDefinition(spec));
    if (existing) {
      if (existing.sameDefinition(spec)) return false;
      throw new Error(`An index named ${index.name} already exists with a different definition`);
    }
    for (const doc of this.docs.values()) {
      const clash = index.findClash(doc, doc._id);
      if (clash) throw new DuplicateKeyError(this.name, clash);
      index.add(doc);
    }
    this.indexes.set(index.name, index);
    return true;
  }

  /** Documents worth testing: by _id, a few through an index, or all. */
  private candidates(filter: Filter): Doc[] {
    return this.narrowCandidates(filter) ?? [...this.docs.values()];
  }

  /**
   * Candidates from `_id`, a hash index (equality or `$in`) or an ordered
   * index's window with a range (`created_at >= t`); null when only a scan
   * can answer.
   */
  private narrowCandidates(filter: Filter): Doc[] | null {
    return this.candidateSet(filter)?.docs ?? null;
  }

  /** narrowCandidates, and whether every candidate matches (an index window that is the whole filter). */
  private candidateSet(filter: Filter): { docs: Doc[]; exact: boolean } | null {
    const byIds = (ids: Iterable<string>): Doc[] => {
      const docs: Doc[] = [];
      for (const id of ids) {
        const doc = this.docs.get(id);
        if (doc) docs.push(doc);
      }
      return docs;
    };
    const ids = idValues(filter._id);
    if (ids) return { docs: byIds(new Set(ids)), exact: false };
    for (const index of this.indexes.values()) {
      const found = index.lookup(filter);
      if (found) return { docs: byIds(found), exact: false };
    }
    for (const index of this.indexes.values()) {
      const window = index.window(filter);
      if (!window?.range || !index.orderable(() => this.docs.values())) continue;
      return { docs: byIds(index.windowIds(window)), exact: window.covered };
    }
    return null;
  }

  /** The stored documents matching the filter, at most `limit`. */
  private matching(filter: Filter, limit?: number): Doc[] {
    // one document by its _id (every projection write): no candidate list, no closure
    if (typeof filter._id === 'string') {
      const doc = this.docs.get(filter._id);
      if (!doc) return [];
      const answer = evaluate(filter, doc);
      const matches = typeof answer === 'boolean' ? answer : new Query(filter, QUERY_OPTIONS).test(doc);
      return matches ? [doc] : [];
    }
    const test = this.tester(filter);
    const found: Doc[] = [];
    for (const doc of this.candidates(filter)) {
      if (!test(doc)) continue;
      found.push(doc);
      if (limit !== undefined && found.length >= limit) break;
    }
    return found;
  }

  /** The filter as a test: the fast path where it decides, mingo (compiled once, when first needed) otherwise. */
  private tester(filter: Filter): (doc: Doc) => boolean {
    let query: Query | null = null;
    let fastCovers = true;
    return (doc) => {
      if (fastCovers) {
        const answer = evaluate(filter, doc);
        if (typeof answer === 'boolean') return answer;
        if (answer === UNSUPPORTED) fastCovers = false;
      }
      return (query ??= new Query(filter, QUERY_OPTIONS)).test(doc);
    };
  }

  private insert(doc: Doc): void {
    assertStringId(doc);
    if (this.docs.has(doc._id)) throw new DuplicateKeyError(this.name, { _id: doc._id });
    this.assertNoClash(doc, null);
    this.put(doc, undefined);
  }

  private update(filter: Filter, update: Update, upsert: boolean, many: boolean): UpdateResult {
    const { modifier, setOnInsert } = splitUpdate(update);
    const targets = this.matching(filter, many ? undefined : 1);
    if (targets.length > 0) {
      let modifiedCount = 0;
      // One document at a time, like MongoDB: a failure leaves earlier ones updated.
      for (const current of targets) {
        if (this.modify(current, filter, modifier)) modifiedCount++;
      }
      return { matchedCount: targets.length, modifiedCount, upsertedCount: 0, upsertedId: null };
    }
    if (!upsert) return NOTHING_UPDATED;
    const doc = this.upserted(filter, modifier, setOnInsert);
    this.insert(doc);
    return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: doc._id };
  }

  /** Applies the modifier to one stored document; false when nothing changed. */
  private modify(current: Doc, filter: Filter, modifier: Update): boolean {
    const fast = fastUpdate(current, modifier);
    if (fast) {
      if (fast.changed) this.replaceStored(current, fast.doc, modifier);
      return fast.changed;
    }
    // The filter lets positional paths ("items.$.qty") find their element;
    // without one, re-testing the already matched document is wasted work.
    const condition = usesPositionalPath(modifier) ? filter : {};
    const next = copyDocument(current);
    const changed = applyModifier(next, modifier, [], condition, { queryOptions: QUERY_OPTIONS });
    if (changed.length === 0) return false;
    this.replaceStored(current, toJsonForm(next));
    return true;
  }

  /** The document an upsert inserts: the filter's equality fields, the modifier, then $setOnInsert. */
  private upserted(filter: Filter, modifier: Update, setOnInsert: Record<string, unknown> | null): Doc {
    const seed = upsertSeed(filter);
    const fast = fastUpdate(seed as Doc, modifier);
    const withInsertFields = fast && (setOnInsert ? fastUpdate(fast.doc, { $set: setOnInsert }) : fast);
    let doc: Record<string, unknown>;
    if (withInsertFields) {
      doc = withInsertFields.doc;
    } else {
      applyModifier(seed, modifier, [], {}, { queryOptions: QUERY_OPTIONS });
      if (setOnInsert) applyModifier(seed, { $set: setOnInsert }, [], {}, { queryOptions: QUERY_OPTIONS });
      doc = toJsonForm(seed);
    }
    if (doc._id === undefined) doc._id = generateId();
    return doc as Doc;
  }

  private replace(filter: Filter, replacement: Doc, upsert: boolean): UpdateResult {
    assertReplacement(replacement);
    const [current] = this.matching(filter, 1);
    if (current) {
      if (replacement._id !== undefined && replacement._id !== current._id) {
        throw new Error(`Performing an update on the path '_id' would modify the immutable field '_id'`);
      }
      const next = toJsonForm({ ...replacement, _id: current._id });
      if (JSON.stringify(next) === JSON.stringify(current)) {
        return { matchedCount: 1, modifiedCount: 0, upsertedCount: 0, upsertedId: null };
      }
      this.replaceStored(current, next);
      return { matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null };
    }
    if (!upsert) return NOTHING_UPDATED;
    const _id = replacement._id ?? upsertSeed(filter)._id ?? generateId();
    const doc = toJsonForm({ ...replacement, _id }) as Doc;
    this.insert(doc);
    return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: doc._id };
  }

  private remove(targets: Doc[]): DeleteResult {
    for (const doc of targets) {
      for (const index of this.indexes.values()) index.remove(doc);
      this.docs.delete(doc._id);
      this.observer.documentChanged(this.name, doc._id);
    }
    return { deletedCount: targets.length };
  }

  /** `modifier`: the fast-path update that made `next`, so indexes it does not touch are left alone. */
  private replaceStored(current: Doc, next: Doc, modifier?: Update): void {
    if (next._id !== current._id) {
      throw new Error(`Performing an update on the path '_id' would modify the immutable field '_id'`);
    }
    if (this.indexes.size > 0) {
      const paths = modifier ? modifiedPaths(modifier) : null;
      const indexes = paths ? [...this.indexes.values()].filter((index) => index.fields.some((field) => paths.some((path) => touches(path, field)))) : [...this.indexes.values()];
      for (const index of indexes) {
        const clash = index.findClash(next, current._id);
        if (clash) throw new DuplicateKeyError(this.name, clash);
      }
      for (const index of indexes) index.replace(current, next);
    }
    this.docs.set(next._id, next);
    this.observer.documentChanged(this.name, next._id);
  }

  private assertNoClash(doc: Doc, selfId: string | null): void {
    for (const index of this.indexes.values()) {
      const clash = index.findClash(doc, selfId);
      if (clash) throw new DuplicateKeyError(this.name, clash);
    }
  }

  private put(next: Doc, previous: Doc | undefined): void {
    for (const index of this.indexes.values()) {
      if (previous) index.replace(previous, next);
      else index.add(next);
    }
    this.docs.set(next._id, next);
    this.observer.documentChanged(this.name, next._id);
  }
}
