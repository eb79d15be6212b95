import { randomBytes } from 'node:crypto';
import { Doc, Filter, Update } from '../read-store.port';

/**
 * Documents are kept in their JSON form (what SQLite stores and what a reload
 * gives back), so an in-memory store and a reopened one behave identically:
 * Dates become ISO strings, undefined fields disappear, NaN becomes null.
 */
export function toJsonForm<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Deep copy of a stored document (already in JSON form: plain objects,
 * arrays, strings, finite numbers, booleans, null), handed to callers so they
 * can never mutate what is stored. A walk of the value, several times cheaper
 * than a JSON round trip; reads do this for every document they return.
 */
export function copyDocument<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = copyDocument(value[i]);
    return copy as T;
  }
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    const field = copyDocument((value as Record<string, unknown>)[key]);
    // a field named __proto__ (JSON.parse makes it an own property) must stay a field, never a prototype
    if (key === '__proto__') Object.defineProperty(copy, key, { value: field, enumerable: true, writable: true, configurable: true });
    else copy[key] = field;
  }
  return copy as T;
}

/** MongoDB would generate an ObjectId; a random 24-hex string looks the same. */
export function generateId(): string {
  return randomBytes(12).toString('hex');
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{ $gt: 1 }` is an operator expression; `{ a: 1 }` is a literal sub-document. */
export function isOperatorExpression(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys[0].startsWith('$');
}

export function assertStringId(doc: { _id?: unknown }): asserts doc is Doc {
  if (typeof doc._id !== 'string' || doc._id === '') {
    throw new TypeError(`documents need a non-empty string _id (got ${JSON.stringify(doc._id)})`);
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.');
  let node = target;
  for (const segment of segments.slice(0, -1)) {
    if (!isPlainObject(node[segment])) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  node[segments[segments.length - 1]] = value;
}

/**
 * The document an upsert starts from when nothing matched, as MongoDB builds
 * it: the filter's equality conditions (plain values, `$eq`, and those inside
 * a top-level `$and`), dot paths expanded into sub-documents.
 */
export function upsertSeed(filter: Filter): Record<string, unknown> {
  const seed: Record<string, unknown> = {};
  const collect = (clause: Filter): void => {
    for (const [field, condition] of Object.entries(clause)) {
      if (field === '$and' && Array.isArray(condition)) {
        for (const sub of condition) if (isPlainObject(sub)) collect(sub);
      } else if (field.startsWith('$')) {
        continue; // $or, $nor, $expr...: no single value to take
      } else if (isOperatorExpression(condition)) {
        if ('$eq' in condition) setPath(seed, field, toJsonForm(condition.$eq));
      } else {
        setPath(seed, field, toJsonForm(condition));
      }
    }
  };
  collect(filter);
  return seed;
}

export interface SplitUpdate {
  /** everything mingo applies on every match */
  modifier: Record<string, unknown>;
  /** applied only when the upsert inserts (mingo has no $setOnInsert) */
  setOnInsert: Record<string, unknown> | null;
}

/** Rejects replacement-style updates, like MongoDB's updateOne does. */
export function splitUpdate(update: Update): SplitUpdate {
  const keys = isPlainObject(update) ? Object.keys(update) : [];
  if (keys.length === 0 || keys.some((key) => !key.startsWith('$'))) {
    throw new TypeError('Update document requires atomic operators ($set, $inc, ...)');
  }
  if (update.$setOnInsert === undefined) return { modifier: update, setOnInsert: null };
  const { $setOnInsert, ...modifier } = update;
  if (!isPlainObject($setOnInsert)) throw new TypeError('$setOnInsert expects a document');
  return { modifier, setOnInsert: $setOnInsert };
}

/** A replacement must be a plain document: an operator at top level is a mistake. */
export function assertReplacement(replacement: Record<string, unknown>): void {
  if (!isPlainObject(replacement) || Object.keys(replacement).some((key) => key.startsWith('$'))) {
    throw new TypeError('Replacement document must not contain update operators');
  }
}
