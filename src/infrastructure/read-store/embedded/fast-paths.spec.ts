import { Context } from 'mingo/core';
import * as queryOperators from 'mingo/operators/query';
import { Query } from 'mingo/query';
import { update as applyModifier } from 'mingo/updater';
import type { Doc, Filter } from '../read-store.port';
import { evaluate, fastUpdate, UNDECIDED, UNSUPPORTED } from './fast-paths';

const OPTIONS = { scriptEnabled: false, context: Context.init({ query: queryOperators }) };

/** A small deterministic PRNG, so a failure names a seed that reproduces it. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const VALUES: unknown[] = [0, 1, 2, 7, -3, 2.5, '', 'a', 'b', 'z', true, false, null, [1, 2], ['a'], [], { x: 1 }, {}];
const FIELDS = ['a', 'b', 'n', 'o.x', 'o.y', '_pos'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function randomDoc(random: () => number, id: number): Doc {
  const doc: Doc = { _id: `d${id}` };
  for (const field of ['a', 'b', 'n', '_pos']) if (random() < 0.7) doc[field] = pick(random, VALUES);
  if (random() < 0.6) doc.o = random() < 0.8 ? { x: pick(random, VALUES), y: pick(random, VALUES) } : pick(random, VALUES);
  return doc;
}

function randomCondition(random: () => number, depth = 0): unknown {
  const scalar = () => pick(random, [0, 1, 2, 7, -3, 'a', 'b', '', true, false, null]);
  switch (Math.floor(random() * 10)) {
    case 0:
      return scalar();
    case 1:
      return { $eq: scalar() };
    case 2:
      return { $ne: scalar() };
    case 3:
      return { [pick(random, ['$gt', '$gte', '$lt', '$lte'])]: pick(random, [0, 1, 2, 'a', 'b']) };
    case 4:
      return { $in: [scalar(), scalar()] };
    case 5:
      return { $nin: [scalar(), scalar()] };
    case 6:
      return { $exists: random() < 0.5 };
    case 7:
      return depth < 2 ? { $not: randomCondition(random, depth + 1) } : { $gte: 1 };
    case 8:
      return { $gte: pick(random, [0, 1, 'a']), $lt: pick(random, [2, 7, 'z']) };
    default:
      return { $ne: null };
  }
}

function randomFilter(random: () => number): Filter {
  const filter: Filter = {};
  const clauses = 1 + Math.floor(random() * 2);
  for (let i = 0; i < clauses; i++) {
    const condition = randomCondition(random);
    // $not needs an operator expression (MongoDB and mingo refuse a literal)
    if (typeof condition === 'object' && condition !== null && '$not' in condition) {
      const inner = (condition as { $not: unknown }).$not;
      if (typeof inner !== 'object' || inner === null) continue;
    }
    filter[pick(random, FIELDS)] = condition;
  }
  return filter;
}

function randomModifier(random: () => number): Record<string, unknown> {
  const modifier: Record<string, Record<string, unknown>> = {};
  const used = new Set<string>();
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) {
    const operator = pick(random, ['$set', '$set', '$inc', '$unset', '$max', '$min']);
    const path = pick(random, ['a', 'b', 'n', 'o.x', 'o.y', 'p.q', 'c']);
    if ([...used].some((other) => other === path || other.startsWith(`${path}.`) || path.startsWith(`${other}.`))) continue;
    used.add(path);
    const operand =
      operator === '$inc' ? pick(random, [1, 2, -1, 0.5]) : operator === '$unset' ? '' : operator === '$set' ? pick(random, VALUES) : pick(random, [0, 5, 'a', 'm']);
    (modifier[operator] ??= {})[path] = operand;
  }
  return modifier;
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('embedded fast paths', () => {
  it('given generated documents and filters, when the fast path decides, then it agrees with mingo', () => {
    const random = prng(20261123);
    let decided = 0;
    for (let round = 0; round < 3000; round++) {
      const filter = randomFilter(random);
      const query = new Query(filter, OPTIONS);
      for (let i = 0; i < 5; i++) {
        const doc = randomDoc(random, i);
        const fast = evaluate(filter, doc);
        if (fast === UNDECIDED || fast === UNSUPPORTED) continue;
        decided++;
        const expected = query.test(doc);
        if (fast !== expected) throw new Error(`filter ${JSON.stringify(filter)} on ${JSON.stringify(doc)}: fast ${fast}, mingo ${expected}`);
      }
    }
    expect(decided).toBeGreaterThan(5000);
  });

  it('given generated documents and updates, when the fast path applies, then the result equals mingo and the stored version is untouched', () => {
    const random = prng(42);
    let applied = 0;
    for (let round = 0; round < 5000; round++) {
      const doc = randomDoc(random, round);
      const before = json(doc);
      const modifier = randomModifier(random);
      const fast = fastUpdate(doc, modifier);
      if (!fast) continue;
      applied++;
      const expected = json(doc) as Record<string, unknown>;
      const changed = applyModifier(expected, modifier, [], {}, { queryOptions: OPTIONS });
      expect({ modifier, doc: json(fast.doc) }).toEqual({ modifier, doc: json(expected) });
      expect({ modifier, changed: fast.changed }).toEqual({ modifier, changed: changed.length > 0 });
      expect(doc).toEqual(before); // copy-on-write: the previous version is never mutated
    }
    expect(applied).toBeGreaterThan(1500);
  });

  it('given a path through an array, when filtering, then the fast path leaves it to mingo', () => {
    expect(evaluate({ 'items.sku': 'a' }, { _id: 'd', items: [{ sku: 'a' }] })).toBe(UNDECIDED);
  });

  it('given an operator the fast path does not know, when filtering, then it says so for the whole filter', () => {
    expect(evaluate({ a: 1, b: { $regex: 'x' } }, { _id: 'd', a: 1, b: 'x' })).toBe(UNSUPPORTED);
    expect(evaluate({ a: { $type: 'string' } }, { _id: 'd', a: 'x' })).toBe(UNSUPPORTED);
  });

  it('given a positional path, when updating, then the fast path leaves it to mingo', () => {
    expect(fastUpdate({ _id: 'd', items: [1] }, { $set: { 'items.0': 2 } })).toBeNull();
    expect(fastUpdate({ _id: 'd', items: [{ q: 1 }] }, { $set: { 'items.$.q': 2 } })).toBeNull();
  });
});
