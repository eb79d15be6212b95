import { EmbeddedReadStore } from '../read-store/embedded/embedded-read-store';
import { PageWriter } from './page-writer';

describe('PageWriter', () => {
  const upsert = (id: string, set: Record<string, unknown>) => ({ updateOne: { filter: { _id: id }, update: { $set: set }, upsert: true } });

  it('given queued writes to a collection, when the projection reads that collection, then it reads its own writes', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const writer = new PageWriter(store);
    writer.write('profiles', upsert('u1', { name: 'ada' }));
    expect(await writer.reads.collection('profiles').findOne({ _id: 'u1' })).toEqual({ _id: 'u1', name: 'ada' });
    expect(writer.pending).toBe(0);
  });

  it('given queued writes to one collection, when the projection reads another, then nothing is committed early', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const commit = jest.spyOn(store, 'commit');
    const writer = new PageWriter(store);
    writer.write('wallets', upsert('u1', { spark: 1 }));
    await writer.reads.collection('profiles').findOne({ _id: 'u1' });
    expect(commit).not.toHaveBeenCalled();
    expect(writer.pending).toBe(1);
  });

  it('given writes of a projection that failed, when discarded, then the page commits only the others', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const writer = new PageWriter(store);
    writer.owner = 'good';
    writer.write('a', upsert('x', { v: 1 }));
    writer.owner = 'bad';
    writer.write('b', upsert('y', { v: 2 }));
    writer.discard('bad');
    await writer.commit(new Map([['good', 7]]));
    expect(await store.collection('a').countDocuments()).toBe(1);
    expect(await store.collection('b').countDocuments()).toBe(0);
    expect(await store.getCheckpoint('good')).toBe(7);
  });
});
