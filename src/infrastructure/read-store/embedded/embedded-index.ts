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

/**
 * How an index serves a sort: the equality values of its leading fields (one
 * prefix per combination of `$in` values; their ranges are merged as they are
 * walked), the walking direction, and whether those equalities are the whole
 * filter (then every walked document matches).
 */
export interface OrderedPlan {
  prefixes: Sortable[][];
  reverse: boolean;
  covered: boolean;
}

/** `$gt`/`$gte`/`$lt`/`$lte` of one type (string or number) on one field: MongoDB compares within a type bracket only. */
interface Bounds {
  rank: number;
  low?: { value: Scalar; inclusive: boolean };
  high?: { value: Scalar; inclusive: boolean };
}

/**
 * The part of a filter an index can answer from its ordered view: equality
 * (or `$in`) on its leading fields, then optionally a range on the next one.
 * `covered`: nothing else is in the filter, so the window holds exactly the
 * matches.
 */
interface Window {
  prefixes: Sortable[][];
  range: Bounds | null;
  covered: boolean;
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
    const leading = this.equalityPrefixes(filter, equalities);
    if (!leading || leading.used < equalities) return null;
    const prefixes = leading.prefixes;
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
    return { prefixes, reverse: reverse === true, covered: Object.keys(filter).length === equalities };
  }

  /**
   * The filter's window on this index: equality or `$in` on leading fields,
   * then optionally a same-type range on the next; null when it names none
   * of the leading fields, or (no range) all of them.
   */
  window(filter: Filter): Window | null {
    const leading = this.equalityPrefixes(filter, this.fields.length);
    if (!leading) return null;
    const { prefixes, used } = leading;
    const range = used < this.fields.length ? rangeBounds(filter[this.fields[used]]) : null;
    // equality on every key is the hash buckets' job (lookup): no ordered view is built for it
    if ((used === 0 || used === this.fields.length) && !range) return null;
    const consumed = used + (range ? 1 : 0);
    return { prefixes, range, covered: Object.keys(filter).length === consumed };
  }

  /** Documents in the window (after orderable() returned true). */
  windowSize(window: Window): number {
    let size = 0;
    for (const prefix of window.prefixes) {
      const [low, high] = this.range(prefix, window.range);
      size += high - low;
    }
    return size;
  }

  /** Ids in the window (after orderable() returned true), in no particular order. */
  windowIds(window: Window): string[] {
    const entries = this.ordered!.entries;
    const ids: string[] = [];
    for (const prefix of window.prefixes) {
      const [low, high] = this.range(prefix, window.range);
      for (let i = low; i < high; i++) ids.push(entries[i].id);
    }
    return ids;
  }

  /**
   * The equality (or `$in`) values of up to `most` leading fields, as one
   * prefix per combination, and how many fields they cover; null past
   * MAX_LOOKUP_KEYS combinations.
   */
  private equalityPrefixes(filter: Filter, most: number): { prefixes: Sortable[][]; used: number } | null {
    let prefixes: Sortable[][] = [[]];
    let used = 0;
    for (; used < most; used++) {
      const values = equalityValues(filter[this.fields[used]]);
      if (values === undefined) break;
      const distinct = [...new Set(values)];
      prefixes = prefixes.flatMap((prefix) => distinct.map((value) => [...prefix, value]));
      if (prefixes.length > MAX_LOOKUP_KEYS) return null;
    }
    return { prefixes, used };
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

  /** Number of documents whose leading keys equal one of the plan's prefixes (after orderable()). */
  rangeSize(plan: OrderedPlan): number {
    let size = 0;
    for (const prefix of plan.prefixes) {
      const [low, high] = this.range(prefix, null);
      size += high - low;
    }
    return size;
  }

  /** Ids in the plan's order (after orderable() returned true); ties on all keys by _id. Several prefixes: their ranges merged. */
  *walk(plan: OrderedPlan): Generator<string> {
    if (!this.ordered) return;
    const entries = this.ordered.entries;
    const step = plan.reverse ? -1 : 1;
    // one cursor per non-empty range: [next position, last position]
    const cursors: [number, number][] = [];
    for (const prefix of plan.prefixes) {
      const [low, high] = this.range(prefix, null);
      if (low < high) cursors.push(plan.reverse ? [high - 1, low] : [low, high - 1]);
    }
    if (cursors.length === 1) {
      const [from, to] = cursors[0];
      for (let i = from; plan.reverse ? i >= to : i <= to; i += step) yield entries[i].id;
      return;
    }
    // k-way merge on a binary heap of cursors, ordered by their current entries
    const start = plan.prefixes[0].length; // the ranges differ on the prefix: compare the sort keys only
    const before = (a: [number, number], b: [number, number]): boolean => this.compareEntries(entries[a[0]], entries[b[0]], start) * step < 0;
    const heap = new CursorHeap(cursors, before);
    while (heap.size > 0) {
      const top = heap.peek();
      yield entries[top[0]].id;
      if (top[0] === top[1]) heap.pop();
      else {
        top[0] += step;
        heap.sift();
      }
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

  private compareEntries(a: OrderedEntry, b: OrderedEntry, start = 0): number {
    for (let i = start; i < this.directions.length; i++) {
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

  /** [low, high) of the entries whose leading keys equal `prefix` and, with `bounds`, whose next key lies within them. */
  private range(prefix: Sortable[], bounds: Bounds | null): [number, number] {
    const position = prefix.length;
    const direction = this.directions[position] ?? 1;
    const compareWindow = (entry: OrderedEntry): number => {
      for (let i = 0; i < prefix.length; i++) {
        const order = compareSortable(entry.key[i], prefix[i]);
        if (order !== 0) return order * this.directions[i];
      }
      return bounds ? placeInBounds(entry.key[position], bounds) * direction : 0;
    };
    const low = this.lowerBound(compareWindow);
    const high = prefix.length === 0 && !bounds ? this.ordered!.entries.length : this.lowerBound((entry) => (compareWindow(entry) <= 0 ? -1 : 1));
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

/** The bounds of a range condition (`$gt`, `$gte`, `$lt`, `$lte` only, operands of one type, string or number); null otherwise. */
function rangeBounds(condition: unknown): Bounds | null {
  if (!isOperatorExpression(condition)) return null;
  const bounds: Bounds = { rank: 0 };
  for (const [operator, operand] of Object.entries(condition)) {
    if (typeof operand !== 'string' && !(typeof operand === 'number' && Number.isFinite(operand))) return null;
    const rank = sortRank(operand);
    if (bounds.rank !== 0 && bounds.rank !== rank) return null;
    bounds.rank = rank;
    const inclusive = operator === '$gte' || operator === '$lte';
    if (operator === '$gt' || operator === '$gte') {
      if (bounds.low) return null;
      bounds.low = { value: operand, inclusive };
    } else if (operator === '$lt' || operator === '$lte') {
      if (bounds.high) return null;
      bounds.high = { value: operand, inclusive };
    } else return null;
  }
  return bounds.rank === 0 ? null : bounds;
}

/** Where a key value lies, in ascending value order: -1 below the bounds (or a lower type), 0 within, 1 above. */
function placeInBounds(value: Sortable, bounds: Bounds): number {
  const rank = sortRank(value);
  if (rank !== bounds.rank) return rank < bounds.rank ? -1 : 1;
  const v = value as Scalar;
  if (bounds.low && (v < bounds.low.value || (v === bounds.low.value && !bounds.low.inclusive))) return -1;
  if (bounds.high && (v > bounds.high.value || (v === bounds.high.value && !bounds.high.inclusive))) return 1;
  return 0;
}

/** A binary min-heap of walk cursors (the k-way merge of an ordered `$in` read). */
class CursorHeap {
  constructor(
    private readonly items: [number, number][],
    private readonly before: (a: [number, number], b: [number, number]) => boolean,
  ) {
    for (let i = (items.length >>> 1) - 1; i >= 0; i--) this.down(i);
  }

  get size(): number {
    return this.items.length;
  }

  peek(): [number, number] {
    return this.items[0];
  }

  pop(): void {
    const last = this.items.pop()!;
    if (this.items.length > 0) {
      this.items[0] = last;
      this.down(0);
    }
  }

  /** The top cursor moved on: restore the heap. */
  sift(): void {
    this.down(0);
  }

  private down(i: number): void {
    const items = this.items;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < items.length && this.before(items[left], items[least])) least = left;
      if (right < items.length && this.before(items[right], items[least])) least = right;
      if (least === i) return;
      [items[i], items[least]] = [items[least], items[i]];
      i = least;
    }
  }
}

/**
 * `docs` sorted by `sort` as the ordered views compare (MongoDB's type order,
 * missing = null, ties by _id), only the first `keep` when given (a bounded
 * insertion buffer: one comparison for most documents); null when a sort
 * value is an array or a sub-document (the caller lets mingo sort).
 */
export function sortDocuments(docs: Doc[], sort: SortSpec, keep = Infinity): Doc[] | null {
  const fields = Object.entries(sort).map(([field, direction]) => ({ segments: field.split('.'), direction: direction === -1 ? -1 : 1 }));
  type Keyed = { doc: Doc; key: Sortable[] };
  const compare = (a: Keyed, b: Keyed): number => {
    for (let i = 0; i < fields.length; i++) {
      const order = compareSortable(a.key[i], b.key[i]);
      if (order !== 0) return order * fields[i].direction;
    }
    return a.doc._id < b.doc._id ? -1 : a.doc._id > b.doc._id ? 1 : 0;
  };
  const keyed: Keyed[] = [];
  for (const doc of docs) {
    const key: Sortable[] = [];
    for (const { segments } of fields) {
      const value = sortableAt(doc, segments);
      if (value === UNORDERABLE) return null;
      key.push(value);
    }
    keyed.push({ doc, key });
  }
  if (keep >= keyed.length) return keyed.sort(compare).map((entry) => entry.doc);
  const best: Keyed[] = [];
  for (const entry of keyed) {
    if (best.length >= keep && compare(entry, best[best.length - 1]) >= 0) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(best[middle], entry) < 0) low = middle + 1;
      else high = middle;
    }
    best.splice(low, 0, entry);
    if (best.length > keep) best.pop();
  }
  return best.map((entry) => entry.doc);
}

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
