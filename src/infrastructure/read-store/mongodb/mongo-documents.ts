import { randomBytes } from 'node:crypto';
import { Doc, Filter, Update } from '../read-store.port';

/**
 * What the MongoDB adapter does to documents and updates before they reach
 * the driver, so that it stores exactly what the embedded adapter stores:
 *
 * - values are written in their JSON form (Dates become ISO strings,
 *   undefined fields disappear, NaN becomes null), as the embedded store keeps
 *   them; filters are passed through untouched (a RegExp must stay one);
 * - ids are strings: an upsert that inserts without an _id from the filter
 *   gets a generated 24-hex string instead of an ObjectId;
 * - malformed input is rejected with the same TypeErrors as the embedded
 *   store, before anything is sent.
 */

/** How documents look to the driver: string ids, any fields. */
export type StoredDocument = { _id: string; [field: string]: unknown };

export function toJsonForm<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** MongoDB would generate an ObjectId; a random 24-hex string looks the same and stays a string. */
export function generateId(): string {
  return randomBytes(12).toString('hex');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOperatorExpression(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value) || value instanceof RegExp || value instanceof Date) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys[0].startsWith('$');
}

export function assertStringId(doc: { _id?: unknown }): asserts doc is Doc {
  if (typeof doc._id !== 'string' || doc._id === '') {
    throw new TypeError(`documents need a non-empty string _id (got ${JSON.stringify(doc._id)})`);
  }
}

/** A copy of the document as it is stored (JSON form), its _id checked. */
export function prepareInsert<T extends Doc>(document: T): T {
  if (!isPlainObject(document)) throw new TypeError('a document must be an object');
  assertStringId(document);
  return toJsonForm(document);
}

/**
 * The _id an upsert's insert takes from the filter, as MongoDB builds it: a
 * plain value or `$eq` on _id, at top level or inside a top-level `$and`.
 * undefined = the filter fixes no _id (MongoDB would generate one).
 */
export function filterIdEquality(filter: Filter): unknown {
  let found: unknown = undefined;
  const collect = (clause: Filter): void => {
    for (const [field, condition] of Object.entries(clause)) {
      if (field === '$and' && Array.isArray(condition)) {
        for (const sub of condition) if (isPlainObject(sub)) collect(sub);
      } else if (field === '_id') {
        if (isOperatorExpression(condition)) {
          if ('$eq' in condition) found = condition.$eq;
        } else {
          found = condition;
        }
      }
    }
  };
  if (isPlainObject(filter)) collect(filter);
  return found;
}

/** Operators whose operands are values to store: written in their JSON form. */
const VALUE_OPERATORS = new Set(['$set', '$setOnInsert', '$push', '$addToSet', '$inc', '$mul', '$max', '$min']);

/**
 * The update as sent to MongoDB. Rejects replacement-style updates (like the
 * embedded store, before anything is sent); with upsert and no _id fixed by
 * the filter or the update, adds `$setOnInsert: { _id: <generated string> }`.
 */
export function prepareUpdate(filter: Filter, update: Update, upsert: boolean): Update {
  const keys = isPlainObject(update) ? Object.keys(update) : [];
  if (keys.length === 0 || keys.some((key) => !key.startsWith('$'))) {
    throw new TypeError('Update document requires atomic operators ($set, $inc, ...)');
  }
  if (update.$setOnInsert !== undefined && !isPlainObject(update.$setOnInsert)) {
    throw new TypeError('$setOnInsert expects a document');
  }
  const prepared: Update = {};
  for (const [operator, operand] of Object.entries(update)) {
    if (!VALUE_OPERATORS.has(operator) || !isPlainObject(operand)) {
      prepared[operator] = operand;
      continue;
    }
    const stored = toJsonForm(operand);
    // `{ $set: { a: undefined } }` sets nothing (as in the embedded store); an empty
    // operand is an error on MongoDB before 5.0, so it is left out.
    if (Object.keys(operand).length > 0 && Object.keys(stored).length === 0) continue;
    prepared[operator] = stored;
  }

  const setsId = [prepared.$set, prepared.$setOnInsert].some((fields) => isPlainObject(fields) && '_id' in fields);
  const needsId = upsert && !setsId && filterIdEquality(filter) === undefined;
  if (needsId) {
    prepared.$setOnInsert = { ...(prepared.$setOnInsert as Record<string, unknown> | undefined), _id: generateId() };
  }
  if (Object.keys(prepared).length === 0) {
    // every operand vanished: match (and upsert) without changing anything
    prepared.$setOnInsert = { _id: filterIdEquality(filter) ?? generateId() };
  }
  return prepared;
}

/**
 * The replacement as sent to MongoDB: no operators, JSON form. An upsert
 * must be able to take a string _id from the replacement or the filter
 * (MongoDB would otherwise insert an ObjectId).
 */
export function prepareReplacement<T extends Doc>(filter: Filter, replacement: T, upsert: boolean): T {
  if (!isPlainObject(replacement) || Object.keys(replacement).some((key) => key.startsWith('$'))) {
    throw new TypeError('Replacement document must not contain update operators');
  }
  const stored = toJsonForm(replacement);
  if (upsert && stored._id === undefined && filterIdEquality(filter) === undefined) {
    throw new TypeError('replaceOne with upsert needs an _id in the replacement or an _id equality in the filter');
  }
  return stored;
}

/** The upserted id as the port reports it (always a string for documents written through the port). */
export function upsertedIdOf(id: unknown): string | null {
  if (id === null || id === undefined) return null;
  return typeof id === 'string' ? id : String(id);
}
