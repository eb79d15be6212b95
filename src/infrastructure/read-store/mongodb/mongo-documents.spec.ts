import { filterIdEquality, prepareInsert, prepareReplacement, prepareUpdate, upsertedIdOf } from './mongo-documents';

const HEX_ID = /^[0-9a-f]{24}$/;

describe('MongoDB document preparation', () => {
  describe('prepareInsert', () => {
    it('given a document with Dates, undefined and NaN, when prepared, then it is the JSON form the embedded store keeps', () => {
      const doc = { _id: 'a', at: new Date('2024-05-06T07:08:09.000Z'), gone: undefined, nan: NaN, nested: { list: [1, undefined] } };
      expect(prepareInsert(doc)).toEqual({ _id: 'a', at: '2024-05-06T07:08:09.000Z', nan: null, nested: { list: [1, null] } });
    });

    it('given a document, when prepared, then the result is a copy the caller cannot change afterwards', () => {
      const doc = { _id: 'a', tags: ['x'] };
      const prepared = prepareInsert(doc);
      doc.tags.push('y');
      expect(prepared.tags).toEqual(['x']);
    });

    it('given a missing or non-string _id, when prepared, then it is rejected', () => {
      expect(() => prepareInsert({ n: 1 } as never)).toThrow(TypeError);
      expect(() => prepareInsert({ _id: 5 } as never)).toThrow(TypeError);
      expect(() => prepareInsert({ _id: '' })).toThrow(TypeError);
    });
  });

  describe('filterIdEquality', () => {
    it('given plain, $eq and $and equalities on _id, when read, then the id is found', () => {
      expect(filterIdEquality({ _id: 'a', n: 1 })).toBe('a');
      expect(filterIdEquality({ _id: { $eq: 'b' } })).toBe('b');
      expect(filterIdEquality({ $and: [{ n: 1 }, { _id: 'c' }] })).toBe('c');
    });

    it('given no _id or a non-equality condition on it, when read, then there is none', () => {
      expect(filterIdEquality({ key: 'k' })).toBeUndefined();
      expect(filterIdEquality({ _id: { $in: ['a', 'b'] } })).toBeUndefined();
      expect(filterIdEquality({ $or: [{ _id: 'a' }] })).toBeUndefined();
    });
  });

  describe('prepareUpdate', () => {
    it('given an update without operators, when prepared, then it is rejected before anything is sent', () => {
      expect(() => prepareUpdate({ _id: 'a' }, { n: 2 }, false)).toThrow('atomic operators');
      expect(() => prepareUpdate({ _id: 'a' }, {}, false)).toThrow('atomic operators');
      expect(() => prepareUpdate({ _id: 'a' }, { $set: { n: 1 }, n: 2 }, false)).toThrow('atomic operators');
    });

    it('given value operators, when prepared, then their values are in JSON form and other operators untouched', () => {
      const pattern = /^x/;
      const update = prepareUpdate(
        { _id: 'a' },
        { $set: { at: new Date('2024-01-01T00:00:00.000Z') }, $push: { log: { at: new Date(0) } }, $pull: { names: pattern }, $unset: { old: '' } },
        false,
      );
      expect(update).toEqual({
        $set: { at: '2024-01-01T00:00:00.000Z' },
        $push: { log: { at: '1970-01-01T00:00:00.000Z' } },
        $pull: { names: pattern },
        $unset: { old: '' },
      });
      expect((update.$pull as { names: unknown }).names).toBe(pattern);
    });

    it('given an upsert whose filter fixes the _id, when prepared, then no id is added', () => {
      expect(prepareUpdate({ _id: 'a', v: { $lt: 3 } }, { $set: { v: 3 } }, true)).toEqual({ $set: { v: 3 } });
    });

    it('given an upsert without an _id in the filter, when prepared, then a generated string id is set on insert only', () => {
      const update = prepareUpdate({ key: 'k' }, { $set: { v: 1 }, $setOnInsert: { createdAt: 'now' } }, true);
      expect(update.$set).toEqual({ v: 1 });
      expect(update.$setOnInsert).toEqual({ createdAt: 'now', _id: expect.stringMatching(HEX_ID) });
    });

    it('given an update that sets _id itself or no upsert, when prepared, then no id is added', () => {
      expect(prepareUpdate({ key: 'k' }, { $setOnInsert: { _id: 'mine' } }, true)).toEqual({ $setOnInsert: { _id: 'mine' } });
      expect(prepareUpdate({ key: 'k' }, { $set: { v: 1 } }, false)).toEqual({ $set: { v: 1 } });
    });

    it('given operands made only of undefined values, when prepared, then they are left out', () => {
      expect(prepareUpdate({ _id: 'a' }, { $set: { gone: undefined }, $inc: { n: 1 } }, false)).toEqual({ $inc: { n: 1 } });
    });

    it('given an update whose every operand vanishes, when prepared, then it still matches and upserts without changes', () => {
      expect(prepareUpdate({ _id: 'a' }, { $set: { gone: undefined } }, true)).toEqual({ $setOnInsert: { _id: 'a' } });
      expect(prepareUpdate({ k: 1 }, { $set: { gone: undefined } }, true)).toEqual({ $setOnInsert: { _id: expect.stringMatching(HEX_ID) } });
    });

    it('given $setOnInsert that is not a document, when prepared, then it is rejected', () => {
      expect(() => prepareUpdate({ _id: 'a' }, { $setOnInsert: 5 }, true)).toThrow('$setOnInsert');
    });
  });

  describe('prepareReplacement', () => {
    it('given a replacement with operators, when prepared, then it is rejected', () => {
      expect(() => prepareReplacement({ _id: 'a' }, { _id: 'a', $set: { n: 1 } } as never, false)).toThrow('operators');
    });

    it('given a replacement, when prepared, then it is a JSON-form copy', () => {
      expect(prepareReplacement({ _id: 'a' }, { _id: 'a', at: new Date(0), gone: undefined }, false)).toEqual({
        _id: 'a',
        at: '1970-01-01T00:00:00.000Z',
      });
    });

    it('given an upsert with no _id in the replacement or the filter, when prepared, then it is rejected (no ObjectId ever)', () => {
      expect(() => prepareReplacement({ key: 'k' }, { v: 1 } as never, true)).toThrow(TypeError);
      expect(prepareReplacement({ _id: 'a' }, { v: 1 } as never, true)).toEqual({ v: 1 });
      expect(prepareReplacement({ key: 'k' }, { v: 1 } as never, false)).toEqual({ v: 1 });
    });
  });

  describe('upsertedIdOf', () => {
    it('given the driver upsertedId, when converted, then strings stay, other ids become strings and none is null', () => {
      expect(upsertedIdOf('a')).toBe('a');
      expect(upsertedIdOf({ toString: () => '65a1b2c3d4e5f60718293a4b' })).toBe('65a1b2c3d4e5f60718293a4b');
      expect(upsertedIdOf(null)).toBeNull();
      expect(upsertedIdOf(undefined)).toBeNull();
    });
  });
});
