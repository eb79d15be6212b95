import { EmbeddedReadStore } from '../read-store/embedded/embedded-read-store';
import type { ProjectionDefinition } from './projection';
import { canonicalDocument, digestReadModels } from './read-model-digest';

describe('read-model digest', () => {
  it('given documents with keys in another order, internal fields and dates, when canonicalised, then only content counts', () => {
    const a = canonicalDocument({ _id: 'u1', b: 1, a: { y: [1, { q: 2, p: 1 }], x: null }, _pos: 7, at: new Date('2025-01-01T00:00:00Z') });
    const b = canonicalDocument({ at: '2025-01-01T00:00:00.000Z', a: { x: null, y: [1, { p: 1, q: 2 }] }, _pos: 99, b: 1, _id: 'u1' });

    expect(a).toBe(b);
    expect(a).toBe('{"_id":"u1","a":{"x":null,"y":[1,{"p":1,"q":2}]},"at":"2025-01-01T00:00:00.000Z","b":1}');
  });

  it('given two stores holding the same documents written in another order, when digested, then the digests are equal; a changed field changes them', async () => {
    const projection = { name: 'things', version: 1, eventTypes: ['T'], collections: ['things', 'more'], apply: () => undefined } as ProjectionDefinition;
    const [first, second] = [new EmbeddedReadStore({ file: null }), new EmbeddedReadStore({ file: null })];
    await first.collection('things').insertOne({ _id: 'a', n: 1, _pos: 1 });
    await first.collection('things').insertOne({ _id: 'b', n: 2, _pos: 2 });
    await second.collection('things').insertOne({ _id: 'b', n: 2, _pos: 5 });
    await second.collection('things').insertOne({ _id: 'a', n: 1, _pos: 4 });

    const [one, two] = [await digestReadModels(first, [projection]), await digestReadModels(second, [projection])];
    await second.collection('things').updateOne({ _id: 'a' }, { $set: { n: 3 } });
    const changed = await digestReadModels(second, [projection]);

    expect(one.digests).toEqual(two.digests);
    expect(one.digests.things).toMatch(/^[0-9a-f]{64}$/);
    expect(changed.digests.things).not.toBe(one.digests.things);
    await first.close();
    await second.close();
  });
});
