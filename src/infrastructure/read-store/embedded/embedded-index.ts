import { Doc, Filter, IndexSpec, SortSpec } from '../read-store.port';
import { isOperatorExpression, isPlainObject } from './document-utils';

/**
 * A secondary index: index key → ids of the documents carrying it. It serves
 * two purposes: enforcing uniqueness, and narrowing a filter with plain
 * equality on every indexed field to a few candidates (the filter is still
 * evaluated by mingo on them, so the index only ever has to return a superset
 * of the matches).
 *
 * Keys follow MongoDB: a missing field indexes as null (so two documents
 * without the field clash on a unique index, as in MongoDB), an array indexes
 * each of its elements (multikey), an empty array as its own "undefined" key.
 */

/** Never produced by JSON.stringify, so it cannot collide with a real value. */
const EMPTY_ARRAY = 'undefined';
/** JSON output escapes control characters, so NUL can join field encodings. */
const FIELD_SEPARATOR = '\u0000';
const EMPTY_ARRAY_MARKER = Symbol('empty array');

type Scalar = string | number | boolean;

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** All values a dot path reaches, descending into arrays like MongoDB does. */
function valuesAt(node: unknown, segments: string[], depth = 0): unknown[] {
  if (depth === segments.length) {
    if (!Array.isArray(node)) return [node];
    return node.length === 0 ? [EMPTY_ARRAY_MARKER] : node;
  }
  if (Array.isArray(node)) {
    const segment = segments[depth];
    const values = node.flatMap((element) => (isPlainObject(element) ? valuesAt(element, segments, depth) : []));
    // "items.0.sku": a numeric segment also addresses an element by position
    if (/^\d+$/.test(segment) && Number(segment) < node.length) {
      values.push(...valuesAt(node[Number(segment)], segments, depth + 1));
    }
    return values.length > 0 ? values : [null];
  }
  if (isPlainObject(node) && segments[depth] in node) {
    return valuesAt(node[segments[depth]], segments, depth + 1);
  }
  return [null];
}


function encodeValue(value: unknown): string {
  if (value === EMPTY_ARRAY_MARKER) return EMPTY_ARRAY;
  return JSON.stringify(value === undefined ? null : value);
}

function decodeValue(encoded: string): unknown {
  return encoded === EMPTY_ARRAY ? undefined : JSON.parse(encoded);
}


/**
 * Ordered view of an index, for sort+limit reads. Only scalar key values can
 * be ordered simply; a document with an array or a sub-document on an indexed
 * path makes the index "unorderable" (the caller then scans and sorts).
 *
 * Values compare in MongoDB's BSON type order for the types stored here:
 * missing/null < numbers < strings < booleans. Missing and null sort as
 * equal, as in MongoDB and in mingo's sort, so an ordered read equals a
 * scan+sort on the keys (documents tying on every key: by _id).
 */
const MISSING = Symbol('missing');
type Sortable = Scalar | null | typeof MISSING;
const UNORDERABLE = Symbol('unorderable');

interface OrderedEntry {
  id: string;
  key: Sortable[];
}

function sortRank(value: Sortable): number {
  if (value === MISSING || value === null) return 1;
  switch (typeof value) {
    case 'number':
      return 2;
    case 'string':
      return 3;
    default:
      return 4; // boolean
  }
}

function compareSortable(a: Sortable, b: Sortable): number {
  const rankA = sortRank(a);
  const rankB = sortRank(b);
  if (rankA !== rankB) return rankA - rankB;
  if (rankA <= 1) return 0;
  return (a as Scalar) < (b as Scalar) ? -1 : (a as Scalar) > (b as Scalar) ? 1 : 0;
}

/** The single scalar at a dot path, MISSING, or UNORDERABLE (array or sub-document on the way or at the end). */
function sortableAt(doc: Doc, segments: string[]): Sortable | typeof UNORDERABLE {
  let node: unknown = doc;
  for (const segment of segments) {
    if (Array.isArray(node)) return UNORDERABLE;
    if (!isPlainObject(node) || !(segment in node)) return MISSING;
    node = node[segment];
  }
  if (node === undefined) return MISSING;
  if (node === null) return null;
  if (isScalar(node)) return node;
  return UNORDERABLE;
}

/** How an index serves a sort: the equality values of its leading fields and the walking direction. */
export interface OrderedPlan {
  prefix: Sortable[];
  reverse: boolean;
}

export function defaultIndexName(keys: IndexSpec['keys']): string {
  return Object.entries(keys)
    .map(([field, direction]) => `${field}_${direction}`)
    .join('_');
}

export class EmbeddedIndex {
  readonly name: string;
  readonly fields: string[];
  readonly unique: boolean;
  private readonly segments: string[][];
  private readonly entries = new Map<string, Set<string>>();
  private readonly directions: number[];
  /** built on the first ordered read, then maintained by add/remove */
  private ordered: { entries: OrderedEntry[]; byId: Map<string, OrderedEntry>; unorderable: Set<string> } | null = null;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.keys);
    if (this.fields.length === 0) throw new TypeError('an index needs at least one key');
    this.name = spec.name ?? defaultIndexName(spec.keys);
    this.unique = spec.unique === true;
    this.segments = this.fields.map((field) => field.split('.'));
    this.directions = this.fields.map((field) => (spec.keys[field] === -1 ? -1 : 1));
  }

  /** Same keys and options: creating it again is a no-op, as in MongoDB. */
  sameDefinition(spec: IndexSpec): boolean {
    return JSON.stringify(spec.keys) === JSON.stringify(this.spec.keys) && (spec.unique === true) === this.unique;
  }

  add(doc: Doc): void {
    for (const key of this.keysOf(doc)) {
      let ids = this.entries.get(key);
      if (!ids) this.entries.set(key, (ids = new Set()));
      ids.add(doc._id);
    }
    if (this.ordered) this.addOrdered(doc);
  }

  remove(doc: Doc): void {
    for (const key of this.keysOf(doc)) {
      const ids = this.entries.get(key);
      if (!ids) continue;
      ids.delete(doc._id);
      if (ids.size === 0) this.entries.delete(key);
    }
    if (this.ordered) this.removeOrdered(doc._id);
  }

  /** add(next) after remove(previous) for the same document, moving it in the ordered view only as far as needed. */
  replace(previous: Doc, next: Doc): void {
    const ordered = this.ordered;
    this.ordered = null; // hash buckets only
    try {
      this.remove(previous);
      this.add(next);
    } finally {
      this.ordered = ordered;
    }
    if (ordered) this.moveOrdered(next);
  }

  /** The clashing key as `{ field: value }`, or null; `selfId` may keep its own keys. */
  findClash(doc: Doc, selfId: string | null): Record<string, unknown> | null {
    if (!this.unique) return null;
    for (const key of this.keysOf(doc)) {
      const ids = this.entries.get(key);
      if (!ids) continue;
      for (const id of ids) {
        if (id !== selfId) return this.describe(key);
      }
    }
    return null;
  }

  /**
   * Candidate ids when the filter has, on every indexed field, a top-level
   * plain equality (a scalar, or `{ $eq: scalar }`) or `{ $in: [scalars] }`:
   * the union of the matching buckets. null when the index cannot answer and
   * the caller must scan.
   */
  lookup(filter: Filter): ReadonlySet<string> | null {
    let keys = [''];
    for (let position = 0; position < this.fields.length; position++) {
      const values = equalityValues(filter[this.fields[position]]);
      if (values === undefined) return null;
      const encoded = [...new Set(values.map(encodeValue))];
      keys = keys.flatMap((prefix) => encoded.map((value) => (position === 0 ? value : prefix + FIELD_SEPARATOR + value)));
      if (keys.length > MAX_LOOKUP_KEYS) return null;
    }
    if (keys.length === 1) return this.entries.get(keys[0]) ?? new Set();
    const union = new Set<string>();
    for (const key of keys) for (const id of this.entries.get(key) ?? []) union.add(id);
    return union;
  }

  /**
   * Whether this index can serve `sort` for `filter` by walking it in order:
   * its leading fields have plain equality in the filter, the remaining ones
   * are exactly the sort's fields, all in the index's directions or all
   * reversed. The caller must still check orderable() before walking.
   */
  orderedPlan(filter: Filter, sort: SortSpec): OrderedPlan | null {
    const sortFields = Object.keys(sort);
    const equalities = this.fields.length - sortFields.length;
    if (sortFields.length === 0 || equalities < 0) return null;
    const prefix: Sortable[] = [];
    for (let i = 0; i < equalities; i++) {
      const value = equalityValue(filter[this.fields[i]]);
      if (value === undefined) return null;
      prefix.push(value);
    }
    let reverse: boolean | null = null;
    for (let j = 0; j < sortFields.length; j++) {
      const position = equalities + j;
      if (this.fields[position] !== sortFields[j]) return null;
      const direction = sort[sortFields[j]];
      if (direction !== 1 && direction !== -1) return null;
      const reversed = direction !== this.directions[position];
      if (reverse === null) reverse = reversed;
      else if (reverse !== reversed) return null;
    }
    return { prefix, reverse: reverse === true };
  }

  /** Builds the ordered view if needed; false while some document has a non-scalar key value. */
  orderable(docs: () => Iterable<Doc>): boolean {
    if (!this.ordered) {
      this.ordered = { entries: [], byId: new Map(), unorderable: new Set() };
      for (const doc of docs()) {
        const key = this.sortKeyOf(doc);
        if (key === null) this.ordered.unorderable.add(doc._id);
        else {
          const entry = { id: doc._id, key };
          this.ordered.entries.push(entry);
          this.ordered.byId.set(doc._id, entry);
        }
      }
      this.ordered.entries.sort((a, b) => this.compareEntries(a, b));
    }
    return this.ordered.unorderable.size === 0;
  }

  /** Number of documents whose leading keys equal the plan's prefix (after orderable()). */
  rangeSize(plan: OrderedPlan): number {
    const [low, high] = this.range(plan.prefix);
    return high - low;
  }

  /** Ids in the plan's order (after orderable() returned true); ties on all keys by _id. */
  *walk(plan: OrderedPlan): Generator<string> {
    if (!this.ordered) return;
    const entries = this.ordered.entries;
    const [low, high] = this.range(plan.prefix);
    if (plan.reverse) {
      for (let i = high - 1; i >= low; i--) yield entries[i].id;
    } else {
      for (let i = low; i < high; i++) yield entries[i].id;
    }
  }

  clear(): void {
    this.entries.clear();
    this.ordered = null;
  }

  private sortKeyOf(doc: Doc): Sortable[] | null {
    const key: Sortable[] = [];
    for (const segments of this.segments) {
      const value = sortableAt(doc, segments);
      if (value === UNORDERABLE) return null;
      key.push(value);
    }
    return key;
  }

  private compareEntries(a: OrderedEntry, b: OrderedEntry): number {
    for (let i = 0; i < this.directions.length; i++) {
      const order = compareSortable(a.key[i], b.key[i]);
      if (order !== 0) return order * this.directions[i];
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  }

  /** First position whose entry is not before `probe` (by compare). */
  private lowerBound(compare: (entry: OrderedEntry) => number): number {
    const entries = this.ordered!.entries;
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(entries[middle]) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** [low, high) of the entries whose leading keys equal `prefix`. */
  private range(prefix: Sortable[]): [number, number] {
    const comparePrefix = (entry: OrderedEntry): number => {
      for (let i = 0; i < prefix.length; i++) {
        const order = compareSortable(entry.key[i], prefix[i]);
        if (order !== 0) return order * this.directions[i];
      }
      return 0;
    };
    const low = this.lowerBound(comparePrefix);
    const high = prefix.length === 0 ? this.ordered!.entries.length : this.lowerBound((entry) => (comparePrefix(entry) <= 0 ? -1 : 1));
    return [low, high];
  }

  private addOrdered(doc: Doc): void {
    const ordered = this.ordered!;
    this.removeOrdered(doc._id);
    const key = this.sortKeyOf(doc);
    if (key === null) {
      ordered.unorderable.add(doc._id);
      return;
    }
    const entry = { id: doc._id, key };
    ordered.entries.splice(this.lowerBound((other) => this.compareEntries(other, entry)), 0, entry);
    ordered.byId.set(doc._id, entry);
  }

  private moveOrdered(doc: Doc): void {
    const ordered = this.ordered!;
    const current = ordered.byId.get(doc._id);
    const key = this.sortKeyOf(doc);
    if (!current || key === null) {
      this.addOrdered(doc); // removes first
      return;
    }
    const entries = ordered.entries;
    const entry = { id: doc._id, key };
    const from = this.lowerBound((other) => this.compareEntries(other, current));
    if (entries[from] !== current) throw new Error(`bug: ordered index ${this.name} lost ${doc._id}`);
    // position among the entries still holding the old one
    const to = this.lowerBound((other) => this.compareEntries(other, entry));
    if (to > from) {
      entries.copyWithin(from, from + 1, to);
      entries[to - 1] = entry;
    } else {
      entries.copyWithin(to + 1, to, from);
      entries[to] = entry;
    }
    ordered.byId.set(doc._id, entry);
  }

  private removeOrdered(id: string): void {
    const ordered = this.ordered!;
    if (ordered.unorderable.delete(id)) return;
    const entry = ordered.byId.get(id);
    if (!entry) return;
    ordered.byId.delete(id);
    const position = this.lowerBound((other) => this.compareEntries(other, entry));
    if (ordered.entries[position] === entry) ordered.entries.splice(position, 1);
  }

  /** Cartesian product of each field's values (MongoDB allows one array field per compound key). */
  private keysOf(doc: Doc): Set<string> {
    let keys = [''];
    this.segments.forEach((segments, position) => {
      const encoded = [...new Set(valuesAt(doc, segments).map(encodeValue))];
      keys = keys.flatMap((prefix) => encoded.map((value) => (position === 0 ? value : prefix + FIELD_SEPARATOR + value)));
    });
    return new Set(keys);
  }

  private describe(key: string): Record<string, unknown> {
    const values = key.split(FIELD_SEPARATOR);
    return Object.fromEntries(this.fields.map((field, i) => [field, decodeValue(values[i])]));
  }
}

/** More $in combinations than this: cheaper to scan. */
const MAX_LOOKUP_KEYS = 10_000;

/** The values a top-level condition accepts by plain equality or `$in` of scalars; undefined otherwise. */
function equalityValues(condition: unknown): Scalar[] | undefined {
  const value = equalityValue(condition);
  if (value !== undefined) return [value];
  if (isOperatorExpression(condition) && Object.keys(condition).length === 1 && Array.isArray(condition.$in)) {
    const values = condition.$in as unknown[];
    if (values.every(isScalar)) return values as Scalar[];
  }
  return undefined;
}

function equalityValue(condition: unknown): Scalar | undefined {
  if (isScalar(condition)) return condition;
  if (isOperatorExpression(condition) && Object.keys(condition).length === 1 && isScalar(condition.$eq)) {
    return condition.$eq;
  }
  return undefined;
}
