import { Doc, DuplicateKeyError } from '../../../src/infrastructure/read-store/read-store.port';
import { ReadStoreFixture, rejectionOf, uniqueName } from './fixture';

interface Profile extends Doc {
  name?: string;
  tags?: string[];
  meta?: { level: number };
  [field: string]: unknown;
}

export function describeLifecycleContract(fixture: ReadStoreFixture): void {
  describe('results are copies', () => {
    it('given a stored document, when a find result is mutated, then the stored document is unchanged', async () => {
      const collection = await fixture.givenCollection<Profile>('copy', [{ _id: 'p', tags: ['a'], meta: { level: 1 } }]);
      const [found] = await collection.find({ _id: 'p' });
      found.tags!.push('b');
      found.meta!.level = 99;
      const again = await collection.findOne({ _id: 'p' });
      again!.name = 'changed';
      expect(await collection.findOne({ _id: 'p' })).toEqual({ _id: 'p', tags: ['a'], meta: { level: 1 } });
    });

    it('given an inserted document, when the caller mutates its object afterwards, then the stored document is unchanged', async () => {
      const collection = fixture.freshCollection<Profile>('copy');
      const doc: Profile = { _id: 'p', tags: ['a'], meta: { level: 1 } };
      await collection.insertOne(doc);
      doc.tags!.push('b');
      doc.meta!.level = 2;
      expect(await collection.findOne({ _id: 'p' })).toEqual({ _id: 'p', tags: ['a'], meta: { level: 1 } });
    });

    it('given an update with object values, when the caller mutates them afterwards, then the stored document is unchanged', async () => {
      const collection = await fixture.givenCollection<Profile>('copy', [{ _id: 'p' }]);
      const meta = { level: 1 };
      const item = { k: 'x' };
      await collection.updateOne({ _id: 'p' }, { $set: { meta }, $push: { items: item } });
      meta.level = 2;
      item.k = 'y';
      expect(await collection.findOne({ _id: 'p' })).toEqual({ _id: 'p', meta: { level: 1 }, items: [{ k: 'x' }] });
    });
  });

  describe('checkpoints', () => {
    it('given a checkpoint never set, when reading it, then it is null', async () => {
      expect(await fixture.store.getCheckpoint(uniqueName('cp'))).toBeNull();
    });

    it('given a checkpoint, when it is set twice, then the last position is read back', async () => {
      const name = uniqueName('cp');
      await fixture.store.setCheckpoint(name, 41);
      await fixture.store.setCheckpoint(name, 42);
      expect(await fixture.store.getCheckpoint(name)).toBe(42);
    });

    it('given a checkpoint, when it is deleted, then reading it gives null', async () => {
      const name = uniqueName('cp');
      await fixture.store.setCheckpoint(name, 7);
      await fixture.store.deleteCheckpoint(name);
      expect(await fixture.store.getCheckpoint(name)).toBeNull();
    });

    it('given two checkpoints, when one changes, then the other is unaffected', async () => {
      const first = uniqueName('cp');
      const second = uniqueName('cp');
      await fixture.store.setCheckpoint(first, 1);
      await fixture.store.setCheckpoint(second, 2);
      await fixture.store.deleteCheckpoint(first);
      expect(await fixture.store.getCheckpoint(second)).toBe(2);
    });
  });

  describe('dropCollection', () => {
    it('given a collection with documents, when it is dropped, then it is empty', async () => {
      const collection = await fixture.givenCollection<Profile>('drop', [{ _id: 'a' }, { _id: 'b' }]);
      await fixture.store.dropCollection(collection.name);
      expect(await fixture.store.collection(collection.name).countDocuments()).toBe(0);
    });

    it('given a collection with a unique index, when it is dropped, then the index is gone too', async () => {
      const collection = await fixture.givenCollection<Profile>('drop', [{ _id: 'a', name: 'x' }]);
      await collection.createIndex({ keys: { name: 1 }, unique: true });
      await fixture.store.dropCollection(collection.name);
      const recreated = fixture.store.collection<Profile>(collection.name);
      await recreated.insertOne({ _id: 'a', name: 'x' });
      await recreated.insertOne({ _id: 'b', name: 'x' });
      expect(await recreated.countDocuments({ name: 'x' })).toBe(2);
    });

    it('given a collection that does not exist, when it is dropped, then nothing fails', async () => {
      await fixture.store.dropCollection(uniqueName('missing'));
    });

    it('given a dropped collection, when writing to it again, then it works like a new collection', async () => {
      const collection = await fixture.givenCollection<Profile>('drop', [{ _id: 'a', name: 'old' }]);
      await fixture.store.dropCollection(collection.name);
      await fixture.store.collection<Profile>(collection.name).insertOne({ _id: 'a', name: 'new' });
      expect(await fixture.store.collection(collection.name).find({})).toEqual([{ _id: 'a', name: 'new' }]);
    });
  });

  describe('durability (adapters that can reopen)', () => {
    const itIfReopen = (name: string, fn: () => Promise<void>) =>
      it(name, async () => {
        if (!fixture.canReopen) return; // adapter without durable storage: nothing to check
        await fn();
      });

    itIfReopen('given written documents, when the store is reopened, then they are all there', async () => {
      const name = uniqueName('durable');
      const collection = fixture.store.collection<Profile>(name);
      await collection.insertOne({ _id: 'a', name: 'ann', tags: ['x'] });
      await collection.insertOne({ _id: 'b', name: 'bob' });
      await collection.updateOne({ _id: 'a' }, { $push: { tags: 'y' } });
      await collection.deleteOne({ _id: 'b' });
      const reopened = await fixture.reopen();
      expect(await reopened.collection(name).find({})).toEqual([{ _id: 'a', name: 'ann', tags: ['x', 'y'] }]);
    });

    itIfReopen('given checkpoints set and deleted, when the store is reopened, then they read back the same', async () => {
      const kept = uniqueName('cp');
      const removed = uniqueName('cp');
      await fixture.store.setCheckpoint(kept, 123);
      await fixture.store.setCheckpoint(removed, 5);
      await fixture.store.deleteCheckpoint(removed);
      const reopened = await fixture.reopen();
      expect(await reopened.getCheckpoint(kept)).toBe(123);
      expect(await reopened.getCheckpoint(removed)).toBeNull();
    });

    itIfReopen('given a unique index, when the store is reopened, then it is still enforced', async () => {
      const name = uniqueName('durable');
      const collection = fixture.store.collection<Profile>(name);
      await collection.createIndex({ keys: { name: 1 }, unique: true });
      await collection.insertOne({ _id: 'a', name: 'ann' });
      const reopened = await fixture.reopen();
      const error = await rejectionOf(reopened.collection<Profile>(name).insertOne({ _id: 'b', name: 'ann' }));
      expect(error).toBeInstanceOf(DuplicateKeyError);
    });

    itIfReopen('given a dropped collection, when the store is reopened, then it stays empty', async () => {
      const name = uniqueName('durable');
      await fixture.store.collection<Profile>(name).insertOne({ _id: 'a' });
      await fixture.store.flush();
      await fixture.store.dropCollection(name);
      const reopened = await fixture.reopen();
      expect(await reopened.collection(name).countDocuments()).toBe(0);
    });
  });
}
