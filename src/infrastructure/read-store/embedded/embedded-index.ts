import { Doc, Filter, IndexSpec } from '../read-store.port';
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

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.keys);
    if (this.fields.length === 0) throw new TypeError('an index needs at least one key');
    this.name = spec.name ?? defaultIndexName(spec.keys);
    this.unique = spec.unique === true;
    this.segments = this.fields.map((field) => field.split('.'));
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
  }

  remove(doc: Doc): void {
    for (const key of this.keysOf(doc)) {
      const ids = this.entries.get(key);
      if (!ids) continue;
      ids.delete(doc._id);
      if (ids.size === 0) this.entries.delete(key);
    }
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
   * Candidate ids when the filter has a top-level plain equality (a scalar,
   * or `{ $eq: scalar }`) on every indexed field; null when the index cannot
   * answer and the caller must scan.
   */
  lookup(filter: Filter): ReadonlySet<string> | null {
    const parts: string[] = [];
    for (const field of this.fields) {
      const value = equalityValue(filter[field]);
      if (value === undefined) return null;
      parts.push(encodeValue(value));
    }
    return this.entries.get(parts.join(FIELD_SEPARATOR)) ?? new Set();
  }

  clear(): void {
    this.entries.clear();
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

function equalityValue(condition: unknown): Scalar | undefined {
  if (isScalar(condition)) return condition;
  if (isOperatorExpression(condition) && Object.keys(condition).length === 1 && isScalar(condition.$eq)) {
    return condition.$eq;
  }
  return undefined;
}
