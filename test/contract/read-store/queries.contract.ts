import { Doc } from '../../../src/infrastructure/read-store/read-store.port';
import { ReadStoreFixture, ids } from './fixture';

interface Agent extends Doc {
  name: string;
  status: string;
  score?: number | null;
  tags?: string[];
  owner?: { id: string; team: string };
}

const agents: Agent[] = [
  { _id: 'a1', name: 'alpha', status: 'active', score: 10, tags: ['x', 'y'], owner: { id: 'u1', team: 'red' } },
  { _id: 'a2', name: 'bravo', status: 'paused', score: 20, tags: ['y'], owner: { id: 'u2', team: 'blue' } },
  { _id: 'a3', name: 'charlie', status: 'active', score: 30, tags: [], owner: { id: 'u1', team: 'red' } },
  { _id: 'a4', name: 'delta', status: 'deleted', score: 40, owner: { id: 'u3', team: 'blue' } },
  { _id: 'a5', name: 'echo', status: 'active' },
];

export function describeQueryContract(fixture: ReadStoreFixture): void {
  const given = () => fixture.givenCollection<Agent>('query', agents);

  describe('queries', () => {
    it('given documents, when filtering on a field by equality, then only documents with that value are returned', async () => {
      const collection = await given();
      expect(ids(await collection.find({ status: 'active' }))).toEqual(['a1', 'a3', 'a5']);
    });

    it('given documents, when filtering by _id, then that document is returned', async () => {
      const collection = await given();
      expect(await collection.find({ _id: 'a2' })).toEqual([agents[1]]);
    });

    it('given documents, when filtering with $in, then documents with any listed value are returned', async () => {
      const collection = await given();
      expect(ids(await collection.find({ status: { $in: ['paused', 'deleted'] } }))).toEqual(['a2', 'a4']);
    });

    it('given documents, when filtering with a $gt/$lte range, then only documents inside the range are returned', async () => {
      const collection = await given();
      expect(ids(await collection.find({ score: { $gt: 10, $lte: 30 } }))).toEqual(['a2', 'a3']);
    });

    it('given sub-documents, when filtering on a dot path, then documents whose nested field matches are returned', async () => {
      const collection = await given();
      expect(ids(await collection.find({ 'owner.team': 'red' }))).toEqual(['a1', 'a3']);
    });

    it('given array fields, when filtering by equality on the array, then documents whose array contains the value are returned', async () => {
      const collection = await given();
      expect(ids(await collection.find({ tags: 'y' }))).toEqual(['a1', 'a2']);
    });

    it('given documents, when filtering with $or, then documents matching either branch are returned', async () => {
      const collection = await given();
      expect(ids(await collection.find({ $or: [{ status: 'paused' }, { 'owner.id': 'u3' }] }))).toEqual(['a2', 'a4']);
    });

    it('given documents, when combining conditions on several fields, then all must hold', async () => {
      const collection = await given();
      expect(ids(await collection.find({ status: 'active', score: { $gte: 20 } }))).toEqual(['a3']);
    });

    it('given a document without a field, when filtering that field for null, then the document matches', async () => {
      const collection = await given();
      expect(ids(await collection.find({ score: null }))).toEqual(['a5']);
    });

    it('given documents, when filtering with $exists false, then only documents lacking the field are returned', async () => {
      const collection = await given();
      expect(ids(await collection.find({ tags: { $exists: false } }))).toEqual(['a4', 'a5']);
    });

    it('given documents, when sorting ascending and descending, then they come back in that order', async () => {
      const collection = await given();
      const withScore = { score: { $exists: true } };
      expect((await collection.find(withScore, { sort: { score: 1 } })).map((d) => d._id)).toEqual(['a1', 'a2', 'a3', 'a4']);
      expect((await collection.find(withScore, { sort: { score: -1 } })).map((d) => d._id)).toEqual(['a4', 'a3', 'a2', 'a1']);
    });

    it('given documents, when sorting on two keys, then the second key breaks ties of the first', async () => {
      const collection = await given();
      const sorted = await collection.find({}, { sort: { status: 1, name: -1 } });
      expect(sorted.map((d) => d._id)).toEqual(['a5', 'a3', 'a1', 'a4', 'a2']);
    });

    it('given sorted documents, when skipping and limiting, then the requested page is returned', async () => {
      const collection = await given();
      const page = await collection.find({}, { sort: { name: 1 }, skip: 1, limit: 2 });
      expect(page.map((d) => d._id)).toEqual(['a2', 'a3']);
    });

    it('given documents, when projecting with inclusion, then only the listed fields and _id are returned', async () => {
      const collection = await given();
      expect(await collection.find({ _id: 'a1' }, { projection: { name: 1, 'owner.team': 1 } })).toEqual([
        { _id: 'a1', name: 'alpha', owner: { team: 'red' } },
      ]);
    });

    it('given documents, when projecting with exclusion, then the excluded fields are missing', async () => {
      const collection = await given();
      expect(await collection.findOne({ _id: 'a2' }, { projection: { tags: 0, owner: 0, score: 0 } })).toEqual({
        _id: 'a2',
        name: 'bravo',
        status: 'paused',
      });
    });

    it('given a nested exclusion projection, when reading, then the stored document is unchanged', async () => {
      const collection = await given();
      await collection.find({ _id: 'a1' }, { projection: { 'owner.team': 0 } });
      expect((await collection.findOne({ _id: 'a1' }))?.owner).toEqual(expect.objectContaining({ team: expect.anything() }));
    });

    it('given documents, when findOne has a sort, then the first document in that order is returned', async () => {
      const collection = await given();
      expect((await collection.findOne({ status: 'active' }, { sort: { name: -1 } }))?._id).toBe('a5');
    });

    it('given documents, when findOne matches nothing, then it returns null', async () => {
      const collection = await given();
      expect(await collection.findOne({ status: 'unknown' })).toBeNull();
    });

    it('given documents, when counting with and without a filter, then the counts match', async () => {
      const collection = await given();
      expect(await collection.countDocuments()).toBe(5);
      expect(await collection.countDocuments({ 'owner.team': 'blue' })).toBe(2);
      expect(await collection.countDocuments({ status: 'unknown' })).toBe(0);
    });

    it('given a collection never written to, when querying it, then it is empty', async () => {
      const collection = fixture.freshCollection('empty');
      expect(await collection.find({})).toEqual([]);
      expect(await collection.countDocuments()).toBe(0);
    });

    it('given a non-unique index, when filtering on the indexed field, then the result is the same as without it', async () => {
      const collection = await given();
      await collection.createIndex({ keys: { status: 1 } });
      await collection.createIndex({ keys: { tags: 1 } });
      expect(ids(await collection.find({ status: 'active' }))).toEqual(['a1', 'a3', 'a5']);
      expect(ids(await collection.find({ tags: 'y' }))).toEqual(['a1', 'a2']);
      expect(ids(await collection.find({ status: 'active', score: { $gt: 15 } }))).toEqual(['a3']);
    });
  });
}

interface Item extends Doc {
  listed: boolean;
  author: string;
  at?: string | number | null;
  trend: number;
}

/** Feed-like documents: the shapes the feeds read through indexes (equality and `$in` prefixes, a range on the next key). */
const items: Item[] = [
  { _id: 'i1', listed: true, author: 'u1', at: '2026-01-01', trend: 5 },
  { _id: 'i2', listed: true, author: 'u2', at: '2026-01-03', trend: 1 },
  { _id: 'i3', listed: false, author: 'u1', at: '2026-01-04', trend: 9 },
  { _id: 'i4', listed: true, author: 'u3', at: '2026-01-02', trend: 7 },
  { _id: 'i5', listed: true, author: 'u1', at: '2026-01-05', trend: 3 },
  { _id: 'i6', listed: true, author: 'u2', at: 20260106, trend: 8 },
  { _id: 'i7', listed: true, author: 'u2', trend: 6 },
  { _id: 'i8', listed: true, author: 'u3', at: '2026-01-06', trend: 3 },
];

/** Ids as returned (ids() sorts them). */
const inOrder = (docs: Doc[]): string[] => docs.map((doc) => doc._id);

export function describeIndexedReadContract(fixture: ReadStoreFixture): void {
  const given = async () => {
    const collection = await fixture.givenCollection<Item>('indexed', items);
    await collection.createIndex({ keys: { listed: 1, author: 1, at: -1 } });
    await collection.createIndex({ keys: { listed: 1, at: -1 } });
    return collection;
  };

  describe('indexed reads', () => {
    it('given an index on (listed, author, at), when reading authors by $in newest first, then the merged order and page', async () => {
      const collection = await given();
      const filter = { listed: true, author: { $in: ['u1', 'u2'] } };
      expect(inOrder(await collection.find(filter, { sort: { at: -1 }, limit: 10 }))).toEqual(['i5', 'i2', 'i1', 'i6', 'i7']);
      expect(inOrder(await collection.find(filter, { sort: { at: -1 }, skip: 1, limit: 2 }))).toEqual(['i2', 'i1']);
      expect(inOrder(await collection.find({ listed: true, author: { $in: ['u3'] } }, { sort: { at: 1 }, limit: 1 }))).toEqual(['i4']);
    });

    it('given an index on (listed, author, at), when counting authors by $in, then the matches are counted', async () => {
      const collection = await given();
      expect(await collection.countDocuments({ listed: true, author: { $in: ['u1', 'u2'] } })).toBe(5);
      expect(await collection.countDocuments({ listed: false, author: { $in: ['u1', 'u9'] } })).toBe(1);
      expect(await collection.countDocuments({ listed: true })).toBe(7);
    });

    it('given an index on (listed, at), when reading a range of at by another order, then only same-type values in the range, sorted', async () => {
      const collection = await given();
      const window = { listed: true, at: { $gte: '2026-01-02' } };
      expect(inOrder(await collection.find(window, { sort: { trend: -1, at: -1 }, limit: 10 }))).toEqual(['i4', 'i8', 'i5', 'i2']);
      expect(inOrder(await collection.find(window, { sort: { trend: -1, at: -1 }, skip: 1, limit: 2 }))).toEqual(['i8', 'i5']);
      expect(await collection.countDocuments(window)).toBe(4);
      expect(await collection.countDocuments({ listed: true, at: { $gt: '2026-01-02', $lt: '2026-01-06' } })).toBe(2);
      expect(await collection.countDocuments({ listed: true, at: { $gte: 0 } })).toBe(1);
    });

    it('given indexed reads, when documents change, then the next reads and counts follow', async () => {
      const collection = await given();
      const window = { listed: true, at: { $gte: '2026-01-02' } };
      expect(await collection.countDocuments(window)).toBe(4);
      await collection.updateOne({ _id: 'i1' }, { $set: { at: '2026-01-07' } });
      await collection.updateOne({ _id: 'i8' }, { $set: { listed: false } });
      await collection.insertOne({ _id: 'i9', listed: true, author: 'u1', at: '2026-01-08', trend: 0 });
      await collection.deleteOne({ _id: 'i4' });
      expect(await collection.countDocuments(window)).toBe(4);
      expect(inOrder(await collection.find(window, { sort: { trend: -1, at: -1 }, limit: 10 }))).toEqual(['i1', 'i5', 'i2', 'i9']);
      expect(inOrder(await collection.find({ listed: true, author: { $in: ['u1', 'u3'] } }, { sort: { at: -1 }, limit: 2 }))).toEqual(['i9', 'i1']);
      expect(await collection.countDocuments({ listed: true, author: { $in: ['u1', 'u3'] } })).toBe(3);
    });
  });
}

