import { EmbeddedReadStore } from '../read-store/embedded/embedded-read-store';
import { DuplicateKeyError } from '../read-store/read-store.port';
import { BatchedProjectionWriter } from './batched-writer';

describe('BatchedProjectionWriter', () => {
  it('given several writes to one document, when flushed, then they apply in the order written', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const writer = new BatchedProjectionWriter(store);
    writer.write('c', { updateOne: { filter: { _id: 'a' }, update: { $set: { v: 1 } }, upsert: true } });
    writer.write('c', { updateOne: { filter: { _id: 'a' }, update: { $set: { v: 2 } } } });
    writer.write('c', { updateOne: { filter: { _id: 'a' }, update: { $inc: { v: 10 } } } });
    await writer.flush();
    expect(await store.collection('c').findOne({ _id: 'a' })).toEqual({ _id: 'a', v: 12 });
  });

  it('given writes to many documents, when flushed, then they go out in bulk (one bulkWrite per round)', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const bulk = jest.spyOn(store.collection('c'), 'bulkWrite');
    const writer = new BatchedProjectionWriter(store);
    for (let i = 0; i < 50; i++) writer.write('c', { updateOne: { filter: { _id: `d${i}` }, update: { $set: { i } }, upsert: true } });
    await writer.flush();
    expect(bulk).toHaveBeenCalledTimes(1);
    expect(await store.collection('c').countDocuments()).toBe(50);
  });

  it('given an upsert that clashes on _id and is marked as already applied, when flushed, then it is skipped', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await store.collection('c').insertOne({ _id: 'a', _pos: 5 });
    const writer = new BatchedProjectionWriter(store);
    writer.write(
      'c',
      { updateOne: { filter: { _id: 'a', _pos: { $not: { $gte: 3 } } }, update: { $set: { _pos: 3 } }, upsert: true } },
      { duplicateIdMeansApplied: true },
    );
    await expect(writer.flush()).resolves.toBeUndefined();
    expect(await store.collection('c').findOne({ _id: 'a' })).toEqual({ _id: 'a', _pos: 5 });
  });

  it('given a real write error, when flushed, then it surfaces', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await store.collection('c').insertOne({ _id: 'a' });
    const writer = new BatchedProjectionWriter(store);
    writer.write('c', { insertOne: { document: { _id: 'a' } } });
    await expect(writer.flush()).rejects.toBeInstanceOf(DuplicateKeyError);
  });

  it('given queued writes, when the projection reads, then it sees its own writes', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const writer = new BatchedProjectionWriter(store);
    writer.write('c', { updateOne: { filter: { _id: 'a' }, update: { $set: { v: 1 } }, upsert: true } });
    expect(await writer.reads.collection('c').findOne({ _id: 'a' })).toEqual({ _id: 'a', v: 1 });
    expect(writer.pending).toBe(0);
  });

  it('given the reads view, when a projection writes through it, then the write methods work', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const writer = new BatchedProjectionWriter(store);
    await writer.reads.collection('c').insertOne({ _id: 'x' });
    expect(await store.collection('c').countDocuments()).toBe(1);
  });
});
