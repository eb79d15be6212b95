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
import { copyDocument, isPlainObject } from './document-utils';

/** The fast path cannot answer for this document (an array on a path, a mixed-type comparison): ask mingo. */
export const UNDECIDED = Symbol('undecided');
/** The fast path does not cover this filter at all: ask mingo, for every document. */
export const UNSUPPORTED = Symbol('unsupported');
export type FastAnswer = boolean | typeof UNDECIDED | typeof UNSUPPORTED;

type Scalar = string | number | boolean | null;

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function isOperand(value: unknown): value is number | string {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** The value at a dot path; UNDECIDED when the path crosses an array (MongoDB would fan out). */
function valueAt(doc: unknown, path: string): unknown {
  if (path.indexOf('.') < 0) return isPlainObject(doc) ? doc[path] : undefined;
  let node = doc;
  for (const segment of path.split('.')) {
    if (Array.isArray(node)) return UNDECIDED;
    if (!isPlainObject(node)) return undefined;
    node = node[segment];
  }
  return node;
}

/** Equality as MongoDB tests it against a scalar: the value, or an element of an array value. */
function equals(value: unknown, operand: Scalar): boolean | typeof UNDECIDED {
  if (Array.isArray(value)) {
    if (operand === null) return UNDECIDED; // null vs arrays of nulls/missing: leave to mingo
    return value.includes(operand);
  }
  if (operand === null) return value === null || value === undefined;
  return value === operand;
}

function compare(value: unknown, operand: number | string, operator: string): boolean | typeof UNDECIDED {
  if (Array.isArray(value)) return UNDECIDED;
  // MongoDB compares within a type bracket only
  if (typeof value !== typeof operand || (typeof value === 'number' && !Number.isFinite(value))) return false;
  const order = (value as number | string) < operand ? -1 : (value as number | string) > operand ? 1 : 0;
  switch (operator) {
    case '$gt':
      return order > 0;
    case '$gte':
      return order >= 0;
    case '$lt':
      return order < 0;
    default:
      return order <= 0;
  }
}

function negate(answer: FastAnswer): FastAnswer {
  return typeof answer === 'boolean' ? !answer : answer;
}

function anyOf(value: unknown, operands: unknown): FastAnswer {
  if (!Array.isArray(operands)) return UNSUPPORTED;
  let undecided = false;
  for (const candidate of operands) {
    if (!isScalar(candidate)) return UNSUPPORTED;
    const result = equals(value, candidate);
    if (result === true) return true;
    if (result === UNDECIDED) undecided = true;
  }
  return undecided ? UNDECIDED : false;
}

/** One operator of a field expression against the field's value. */
function operatorAnswer(operator: string, operand: unknown, value: unknown): FastAnswer {
  switch (operator) {
    case '$eq':
      return isScalar(operand) ? equals(value, operand) : UNSUPPORTED;
    case '$ne':
      return isScalar(operand) ? negate(equals(value, operand)) : UNSUPPORTED;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return isOperand(operand) ? compare(value, operand, operator) : UNSUPPORTED;
    case '$in':
      return anyOf(value, operand);
    case '$nin':
      return negate(anyOf(value, operand));
    case '$exists':
      return typeof operand === 'boolean' ? (value !== undefined) === operand : UNSUPPORTED;
    case '$not':
      return isPlainObject(operand) ? negate(expressionAnswer(operand, value)) : UNSUPPORTED;
    default:
      return UNSUPPORTED;
  }
}

/** `{ $gte: 1, $lt: 5 }`: all operators must hold. */
function expressionAnswer(expression: Record<string, unknown>, value: unknown): FastAnswer {
  let answer: FastAnswer = true;
  let any = false;
  for (const operator in expression) {
    any = true;
    if (operator.charCodeAt(0) !== 36 /* $ */) return UNSUPPORTED;
    const result = operatorAnswer(operator, expression[operator], value);
    if (result === UNSUPPORTED) return UNSUPPORTED;
    if (result === false) answer = false;
    else if (result === UNDECIDED && answer === true) answer = UNDECIDED;
  }
  return any ? answer : UNSUPPORTED;
}

function fieldAnswer(condition: unknown, value: unknown): FastAnswer {
  if (isScalar(condition)) return equals(value, condition);
  if (isPlainObject(condition)) {
    for (const key in condition) {
      // literal sub-documents: mingo
      return key.charCodeAt(0) === 36 ? expressionAnswer(condition, value) : UNSUPPORTED;
    }
  }
  return UNSUPPORTED; // arrays, empty objects, RegExps
}

function isCoveredPath(path: string): boolean {
  if (path === '' || path.charCodeAt(0) === 36) return false;
  if (path.indexOf('.') < 0) return true;
  return path.split('.').every((segment) => segment !== '' && segment.charCodeAt(0) !== 36 && !/^\d+$/.test(segment));
}

/**
 * The filter's answer for one document, without compiling anything or
 * allocating: true/false where it is sure, UNDECIDED where mingo must look
 * at this document, UNSUPPORTED where the filter needs mingo altogether.
 */
export function evaluate(filter: Record<string, unknown>, doc: Doc): FastAnswer {
  let answer: FastAnswer = true;
  for (const field in filter) {
    const condition = filter[field];
    let result: FastAnswer;
    if (field === '$and' || field === '$or') {
      result = logical(field, condition, doc);
    } else if (!isCoveredPath(field)) {
      return UNSUPPORTED;
    } else {
      const value = valueAt(doc, field);
      result = value === UNDECIDED ? UNDECIDED : fieldAnswer(condition, value);
    }
    if (result === UNSUPPORTED) return UNSUPPORTED;
    if (result === false) answer = false;
    else if (result === UNDECIDED && answer === true) answer = UNDECIDED;
  }
  return answer;
}

function logical(operator: '$and' | '$or', parts: unknown, doc: Doc): FastAnswer {
  if (!Array.isArray(parts) || parts.length === 0) return UNSUPPORTED;
  const decisive = operator === '$or';
  let undecided = false;
  let decided = false;
  for (const part of parts) {
    if (!isPlainObject(part)) return UNSUPPORTED;
    const result = evaluate(part, doc);
    if (result === UNSUPPORTED) return UNSUPPORTED;
    if (result === decisive) decided = true;
    else if (result === UNDECIDED) undecided = true;
  }
  return decided ? decisive : undecided ? UNDECIDED : !decisive;
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

const COVERED = new Set(['$set', '$unset', '$inc', '$max', '$min']);

/** Parsed paths by their text: projections write the same few paths over and over. */
const parsedPaths = new Map<string, string[] | null>();

function segmentsOf(path: string): string[] | null {
  let segments = parsedPaths.get(path);
  if (segments === undefined) {
    const split = path.split('.');
    const covered = split.every((segment) => segment !== '' && !segment.startsWith('$') && !/^\d+$/.test(segment)) && split[0] !== '_id';
    segments = covered ? split : null;
    if (parsedPaths.size < 10_000) parsedPaths.set(path, segments);
  }
  return segments;
}

/** `b` equals `a` or lies under it (`a` = "x", `b` = "x.y"). */
function coversPath(a: string, b: string): boolean {
  return b === a || (b.length > a.length && b.charCodeAt(a.length) === 46 /* . */ && b.startsWith(a));
}

/** Whether the fast path covers every operator, path and operand of the modifier (nothing allocated). */
function covers(modifier: Record<string, unknown>): boolean {
  let paths = 0;
  for (const operator in modifier) {
    const fields = modifier[operator];
    if (!COVERED.has(operator) || !isPlainObject(fields)) return false;
    for (const path in fields) {
      paths++;
      const operand = fields[path];
      if (!segmentsOf(path)) return false;
      if (operator === '$inc') {
        if (!(typeof operand === 'number' && Number.isFinite(operand))) return false;
      } else if (operator === '$max' || operator === '$min') {
        if (!isScalar(operand)) return false;
      } else if (operator === '$set' && !isJsonPlain(operand)) {
        return false;
      }
    }
  }
  return paths < 2 || !conflicting(modifier);
}

/** Two changes on one path, or on a path and its prefix: MongoDB refuses; the general path reports it. */
function conflicting(modifier: Record<string, unknown>): boolean {
  for (const a in modifier) {
    for (const pathA in modifier[a] as Record<string, unknown>) {
      let afterA = false;
      for (const b in modifier) {
        for (const pathB in modifier[b] as Record<string, unknown>) {
          if (a === b && pathA === pathB && !afterA) {
            afterA = true;
            continue;
          }
          if (!afterA) continue;
          if (coversPath(pathA, pathB) || coversPath(pathB, pathA)) return true;
        }
      }
    }
  }
  return false;
}

/** The dot paths a covered modifier writes (for index maintenance). */
export function modifiedPaths(modifier: Record<string, unknown>): string[] {
  const paths: string[] = [];
  for (const operator in modifier) for (const path in modifier[operator] as Record<string, unknown>) paths.push(path);
  return paths;
}

export interface FastUpdateResult {
  doc: Doc;
  changed: boolean;
}

/** The object holding the path's last segment, copied on the way down; null when the path cannot be written. */
function parentOf(root: Record<string, unknown>, copied: object[], segments: string[], create: boolean): Record<string, unknown> | null | undefined {
  let node = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i];
    const child = node[segment];
    if (child === undefined) {
      if (!create) return undefined;
      const fresh: Record<string, unknown> = {};
      copied.push(fresh);
      node[segment] = fresh;
      node = fresh;
      continue;
    }
    if (Array.isArray(child)) return null;
    if (!isPlainObject(child)) return create ? null : undefined;
    if (!copied.includes(child)) {
      const copy = { ...child };
      copied.push(copy);
      node[segment] = copy;
      node = copy;
    } else {
      node = child;
    }
  }
  return node;
}

/**
 * Applies `$set`/`$unset`/`$inc`/`$max`/`$min` copy-on-write, or returns null
 * when the general path must run (it then reports any error MongoDB would).
 */
export function fastUpdate(current: Doc, modifier: Record<string, unknown>): FastUpdateResult | null {
  if (!covers(modifier)) return null;
  const root: Record<string, unknown> = { ...current };
  // the objects this update copied (few: one per level of a dot path)
  const copied: object[] = [root];
  let changed = false;
  for (const operator in modifier) {
    const fields = modifier[operator] as Record<string, unknown>;
    for (const path in fields) {
      const operand = fields[path];
      const segments = segmentsOf(path)!;
      const key = segments[segments.length - 1];
      if (operator === '$unset') {
        const parent = parentOf(root, copied, segments, false);
        if (parent === null) return null;
        if (parent && key in parent) {
          delete parent[key];
          changed = true;
        }
        continue;
      }
      const parent = parentOf(root, copied, segments, true);
      if (!parent) return null;
      const existing = parent[key];
      let next: unknown;
      switch (operator) {
        case '$set':
          next = copyDocument(operand); // plain JSON (checked above): a walk copies it
          break;
        case '$inc':
          if (existing === undefined) next = operand;
          else if (typeof existing === 'number') next = existing + (operand as number);
          else return null; // null or not a number: MongoDB refuses $inc
          break;
        default: {
          // $max, $min
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
        }
      }
      if (!changed && !sameJson(existing, next)) changed = true;
      parent[key] = next;
    }
  }
  return { doc: root as Doc, changed };
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Whether a write to `path` can change the value an index reads at `field`. */
export function touches(path: string, field: string): boolean {
  return coversPath(path, field) || coversPath(field, path);
}
