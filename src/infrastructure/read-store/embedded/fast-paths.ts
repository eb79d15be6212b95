/**
 * Fast paths of the embedded read store for the filters and updates that
 * projections write all day: `{_id, _pos: {$not: {$gte: n}}}` with `$set`,
 * `$inc`, `$setOnInsert`... They decide exactly what mingo would, without
 * compiling a query or deep-copying the document, and give up (mingo then
 * runs) on anything they do not fully cover: arrays on a path, positional or
 * numeric path segments, values that are not plain JSON, mixed-type
 * comparisons, conflicting paths. test: fast-paths.spec.ts checks them
 * against mingo on generated documents.
 *
 * Documents are copy-on-write: an update copies the objects along the paths
 * it changes and shares the rest with the previous version, so stored
 * documents must never be mutated in place (the collection hands out copies).
 */
import type { Doc, Filter } from '../read-store.port';
import { isPlainObject } from './document-utils';

/** A compiled filter's answer when the document needs the general evaluator. */
export const UNDECIDED = Symbol('undecided');
export type FastPredicate = (doc: Doc) => boolean | typeof UNDECIDED;

type Scalar = string | number | boolean | null;
type Condition = (value: unknown) => boolean | typeof UNDECIDED;

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** The value at a dot path; UNDECIDED when the path crosses an array (MongoDB would fan out). */
function valueAt(doc: unknown, segments: readonly string[]): unknown {
  let node = doc;
  for (const segment of segments) {
    if (Array.isArray(node)) return UNDECIDED;
    if (!isPlainObject(node)) return undefined;
    node = node[segment];
  }
  return node;
}

function sameScalar(value: unknown, operand: Scalar): boolean {
  if (operand === null) return value === null || value === undefined;
  return value === operand;
}

/** Equality as MongoDB tests it against a scalar: the value, or an element of an array value. */
function equals(value: unknown, operand: Scalar): boolean | typeof UNDECIDED {
  if (Array.isArray(value)) {
    if (operand === null) return UNDECIDED; // null vs arrays of nulls/missing: leave to mingo
    return value.some((element) => element === operand);
  }
  return sameScalar(value, operand);
}

function compare(value: unknown, operand: unknown, test: (order: number) => boolean): boolean | typeof UNDECIDED {
  if (Array.isArray(value)) return UNDECIDED;
  if (typeof operand === 'number' && Number.isFinite(operand)) {
    return typeof value === 'number' && Number.isFinite(value) ? test(value - operand) : false;
  }
  if (typeof operand === 'string') {
    return typeof value === 'string' ? test(value < operand ? -1 : value > operand ? 1 : 0) : false;
  }
  return UNDECIDED;
}

function negate(result: boolean | typeof UNDECIDED): boolean | typeof UNDECIDED {
  return result === UNDECIDED ? UNDECIDED : !result;
}

/** One operator of a field expression, or null when the fast path does not cover it. */
function operatorCondition(operator: string, operand: unknown): Condition | null {
  switch (operator) {
    case '$eq':
      return isScalar(operand) ? (value) => equals(value, operand) : null;
    case '$ne':
      return isScalar(operand) ? (value) => negate(equals(value, operand)) : null;
    case '$gt':
      return (value) => compare(value, operand, (order) => order > 0);
    case '$gte':
      return (value) => compare(value, operand, (order) => order >= 0);
    case '$lt':
      return (value) => compare(value, operand, (order) => order < 0);
    case '$lte':
      return (value) => compare(value, operand, (order) => order <= 0);
    case '$in':
    case '$nin': {
      if (!Array.isArray(operand) || !operand.every(isScalar)) return null;
      const any = (value: unknown) => {
        let undecided = false;
        for (const candidate of operand) {
          const result = equals(value, candidate);
          if (result === true) return true;
          if (result === UNDECIDED) undecided = true;
        }
        return undecided ? UNDECIDED : false;
      };
      return operator === '$in' ? any : (value) => negate(any(value));
    }
    case '$exists':
      return typeof operand === 'boolean' ? (value) => (value !== undefined) === operand : null;
    case '$not': {
      if (!isPlainObject(operand) || Object.keys(operand).length === 0) return null;
      const inner = expressionCondition(operand);
      return inner ? (value) => negate(inner(value)) : null;
    }
    default:
      return null;
  }
}

/** `{ $gte: 1, $lt: 5 }`: all operators must hold. */
function expressionCondition(expression: Record<string, unknown>): Condition | null {
  const conditions: Condition[] = [];
  for (const [operator, operand] of Object.entries(expression)) {
    if (!operator.startsWith('$')) return null;
    // range operators need a number or a string operand to be covered here
    if (['$gt', '$gte', '$lt', '$lte'].includes(operator) && !(typeof operand === 'string' || (typeof operand === 'number' && Number.isFinite(operand)))) {
      return null;
    }
    const condition = operatorCondition(operator, operand);
    if (!condition) return null;
    conditions.push(condition);
  }
  if (conditions.length === 1) return conditions[0];
  return (value) => {
    let undecided = false;
    for (const condition of conditions) {
      const result = condition(value);
      if (result === false) return false;
      if (result === UNDECIDED) undecided = true;
    }
    return undecided ? UNDECIDED : true;
  };
}

function fieldCondition(condition: unknown): Condition | null {
  if (isScalar(condition)) return (value) => equals(value, condition);
  if (isPlainObject(condition)) {
    const keys = Object.keys(condition);
    if (keys.length > 0 && keys.every((key) => key.startsWith('$'))) return expressionCondition(condition);
  }
  return null; // literal sub-documents and arrays: mingo
}

function clausePredicate(field: string, condition: unknown): FastPredicate | null {
  if (field === '$and' || field === '$or') {
    if (!Array.isArray(condition) || condition.length === 0) return null;
    const parts = condition.map((part) => (isPlainObject(part) ? compileFilter(part) : null));
    if (parts.some((part) => part === null)) return null;
    const predicates = parts as FastPredicate[];
    const decisive = field === '$and' ? false : true;
    return (doc) => {
      let undecided = false;
      for (const predicate of predicates) {
        const result = predicate(doc);
        if (result === decisive) return decisive;
        if (result === UNDECIDED) undecided = true;
      }
      return undecided ? UNDECIDED : !decisive;
    };
  }
  if (field.startsWith('$')) return null;
  const segments = field.split('.');
  if (segments.some((segment) => segment === '' || /^\d+$/.test(segment) || segment.startsWith('$'))) return null;
  const test = fieldCondition(condition);
  if (!test) return null;
  if (segments.length === 1) {
    const key = segments[0];
    return (doc) => test(doc[key]);
  }
  return (doc) => {
    const value = valueAt(doc, segments);
    return value === UNDECIDED ? UNDECIDED : test(value);
  };
}

/** A predicate equivalent to the filter, or null when only mingo can evaluate it. */
export function compileFilter(filter: Filter): FastPredicate | null {
  const clauses: FastPredicate[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    const predicate = clausePredicate(field, condition);
    if (!predicate) return null;
    clauses.push(predicate);
  }
  if (clauses.length === 0) return () => true;
  if (clauses.length === 1) return clauses[0];
  return (doc) => {
    let undecided = false;
    for (const clause of clauses) {
      const result = clause(doc);
      if (result === false) return false;
      if (result === UNDECIDED) undecided = true;
    }
    return undecided ? UNDECIDED : true;
  };
}

/** The filter without `_id`, compiled; `null` when it needs mingo. Used after an `_id` lookup. */
export function compileRest(filter: Filter): FastPredicate | null {
  if (!('_id' in filter)) return compileFilter(filter);
  const { _id: _ignored, ...rest } = filter;
  return compileFilter(rest);
}

// ---- updates ----

/** Plain JSON (what toJsonForm keeps unchanged); anything else goes the general way. */
function isJsonPlain(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (isScalar(value)) return true;
  if (Array.isArray(value)) return value.every((element) => isJsonPlain(element, depth + 1));
  if (isPlainObject(value) && Object.getPrototypeOf(value) === Object.prototype) {
    for (const key in value) if (!isJsonPlain(value[key], depth + 1)) return false;
    return true;
  }
  return false;
}

function copyValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? (JSON.parse(JSON.stringify(value)) as unknown) : value;
}

const COVERED = new Set(['$set', '$unset', '$inc', '$max', '$min']);

interface PathChange {
  operator: string;
  path: string;
  segments: string[];
  operand: unknown;
}

function pathChanges(modifier: Record<string, unknown>): PathChange[] | null {
  const changes: PathChange[] = [];
  for (const [operator, fields] of Object.entries(modifier)) {
    if (!COVERED.has(operator) || !isPlainObject(fields)) return null;
    for (const [path, operand] of Object.entries(fields)) {
      const segments = path.split('.');
      if (segments.some((segment) => segment === '' || segment.startsWith('$') || /^\d+$/.test(segment))) return null;
      if (segments[0] === '_id') return null;
      if (operator !== '$unset' && !isJsonPlain(operand)) return null;
      if ((operator === '$inc' && !(typeof operand === 'number' && Number.isFinite(operand))) || ((operator === '$max' || operator === '$min') && !isScalar(operand))) {
        return null;
      }
      changes.push({ operator, path, segments, operand });
    }
  }
  // two changes on one path, or on a path and its prefix: MongoDB refuses; leave the error to the general path
  const paths = changes.map((change) => change.path).sort();
  for (let i = 1; i < paths.length; i++) {
    if (paths[i] === paths[i - 1] || paths[i].startsWith(`${paths[i - 1]}.`)) return null;
  }
  return changes;
}

export interface FastUpdateResult {
  doc: Doc;
  changed: boolean;
  /** the dot paths written (for index maintenance) */
  paths: string[];
}

/**
 * Applies `$set`/`$unset`/`$inc`/`$max`/`$min` copy-on-write, or returns null
 * when the general path must run (it then reports any error MongoDB would).
 */
export function fastUpdate(current: Doc, modifier: Record<string, unknown>): FastUpdateResult | null {
  const changes = pathChanges(modifier);
  if (!changes) return null;
  const root: Record<string, unknown> = { ...current };
  const copied = new Set<object>([root]);
  let changed = false;

  /** The object holding the last segment, copied on the way down; null when the path cannot be written. */
  const parentOf = (segments: string[], create: boolean): Record<string, unknown> | null | undefined => {
    let node = root;
    for (const segment of segments.slice(0, -1)) {
      const child = node[segment];
      if (child === undefined) {
        if (!create) return undefined;
        const fresh: Record<string, unknown> = {};
        copied.add(fresh);
        node[segment] = fresh;
        node = fresh;
        continue;
      }
      if (Array.isArray(child)) return null;
      if (!isPlainObject(child)) return create ? null : undefined;
      if (!copied.has(child)) {
        const copy = { ...child };
        copied.add(copy);
        node[segment] = copy;
        node = copy;
      } else {
        node = child;
      }
    }
    return node;
  };

  for (const { operator, segments, operand } of changes) {
    const key = segments[segments.length - 1];
    if (operator === '$unset') {
      const parent = parentOf(segments, false);
      if (parent === null) return null;
      if (parent && key in parent) {
        delete parent[key];
        changed = true;
      }
      continue;
    }
    const parent = parentOf(segments, true);
    if (!parent) return null;
    const existing = parent[key];
    let next: unknown;
    switch (operator) {
      case '$set':
        next = copyValue(operand);
        break;
      case '$inc':
        if (existing === undefined || existing === null) {
          if (existing === null) return null; // MongoDB refuses $inc on null
          next = operand;
        } else if (typeof existing === 'number') next = existing + (operand as number);
        else return null;
        break;
      case '$max':
      case '$min': {
        if (existing === undefined) {
          next = operand;
          break;
        }
        const bothNumbers = typeof existing === 'number' && typeof operand === 'number';
        const bothStrings = typeof existing === 'string' && typeof operand === 'string';
        if (!bothNumbers && !bothStrings) return null;
        const greater = (existing as number | string) < (operand as number | string);
        const less = (existing as number | string) > (operand as number | string);
        next = (operator === '$max' ? greater : less) ? operand : existing;
        break;
      }
      default:
        return null;
    }
    if (!sameJson(existing, next)) changed = true;
    parent[key] = next;
  }
  return { doc: root as Doc, changed, paths: changes.map((change) => change.path) };
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Whether a write to `path` can change the value an index reads at `field`. */
export function touches(path: string, field: string): boolean {
  return path === field || field.startsWith(`${path}.`) || path.startsWith(`${field}.`);
}
