import { randomUUID } from 'node:crypto';
import { type EventStore, type NewEvent, NO_STREAM } from '../event-store/event-store.port';
import { verifyLog } from '../event-store/hash-chain';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { type PersonalDataCatalogue, ShreddingEventStore } from './shredding-event-store';
import { SqliteKeyStore } from './sqlite-key-store';

const catalogue: PersonalDataCatalogue = {
  fieldsOf: (type) =>
    ({
      Registered: [{ path: 'email', subject: { field: 'user_id' }, purpose: 'personal', erased: null }],
      Posted: [{ path: 'body', subject: { field: 'author_id' }, purpose: 'content', erased: '[deleted]' }],
      Edited: [{ path: 'changes.body', subject: { streamHead: 'author_id' }, purpose: 'content', erased: '[deleted]' }],
      Met: [
        { path: 'place.lat', subject: { field: 'a' }, purpose: 'personal', erased: null },
        { path: 'place.lat', subject: { field: 'b' }, purpose: 'personal', erased: null },
      ],
    })[type] ?? [],
  erasureOf: (type, data) => (type === 'Erased' ? { subject: String(data.user_id), purposes: data.content === true ? ['personal', 'content'] : ['personal'] } : null),
};

const event = (type: string, data: Record<string, unknown>): NewEvent => ({
  type,
  data,
  metadata: { eventId: randomUUID(), correlationId: 'c', causationId: null, actor: 'test', nodeId: 'n', occurredAt: new Date().toISOString(), schemaVersion: 1 },
});

describe('ShreddingEventStore', () => {
  let raw: EventStore;
  let keys: SqliteKeyStore;
  let store: ShreddingEventStore;

  beforeEach(() => {
    raw = new SqliteEventStore({ file: ':memory:' });
    keys = new SqliteKeyStore({ file: null });
    store = new ShreddingEventStore(raw, keys, catalogue);
  });
  afterEach(async () => store.close());

  const sealedText = async () => (await raw.readSealed({ after: 0, maxCount: 1000 })).map((e) => e.data).join('\n');

  it('given a personal field, when appended, then the log holds ciphertext and every read gives the value back', async () => {
    await store.append('user-1', [event('Registered', { user_id: 'u1', email: 'ada@example.com' })], NO_STREAM);
    expect(await sealedText()).not.toContain('ada@example.com');
    expect((await store.readStream('user-1'))[0].data.email).toBe('ada@example.com');
    expect((await store.readAll())[0].data.email).toBe('ada@example.com');
  });

  it('given an event without personal fields, then it is stored as appended', async () => {
    await store.append('x-1', [event('Other', { email: 'plain@example.com' })], NO_STREAM);
    expect(await sealedText()).toContain('plain@example.com');
  });

  it('given an erasure event, when appended, then the subject reads as erased everywhere and the chain still verifies', async () => {
    await store.append('user-1', [event('Registered', { user_id: 'u1', email: 'ada@example.com' })], NO_STREAM);
    await store.append('user-2', [event('Registered', { user_id: 'u2', email: 'bob@example.com' })], NO_STREAM);
    await store.append('user-1', [event('Erased', { user_id: 'u1' })], 0);
    expect((await store.readStream('user-1'))[0].data.email).toBeNull();
    expect((await store.readStream('user-2'))[0].data.email).toBe('bob@example.com');
    expect((await verifyLog(raw)).ok).toBe(true);
  });

  it('given a personal erasure without content, then the content key stays; with content, the bodies go too', async () => {
    await store.append('post-1', [event('Posted', { author_id: 'u1', body: 'my words' })], NO_STREAM);
    await store.append('user-1', [event('Erased', { user_id: 'u1' })], NO_STREAM);
    expect((await store.readStream('post-1'))[0].data.body).toBe('my words');
    await store.append('user-1', [event('Erased', { user_id: 'u1', content: true })], 0);
    expect((await store.readStream('post-1'))[0].data.body).toBe('[deleted]');
  });

  it('given an edit, then its body is sealed with the key of the author named by the stream head', async () => {
    await store.append('post-1', [event('Posted', { author_id: 'u1', body: 'first' })], NO_STREAM);
    await store.append('post-1', [event('Edited', { changes: { body: 'second', pinned: true } })], 0);
    await store.append('user-1', [event('Erased', { user_id: 'u1', content: true })], NO_STREAM);
    const edit = (await store.readStream('post-1'))[1];
    expect(edit.data).toEqual({ changes: { body: '[deleted]', pinned: true } });
  });

  it('given a field of two people, then either erasure shreds it', async () => {
    await store.append('m-1', [event('Met', { a: 'u1', b: 'u2', place: { lat: 46.2, label: 'x' } })], NO_STREAM);
    expect((await store.readStream('m-1'))[0].data.place).toEqual({ lat: 46.2, label: 'x' });
    await store.append('user-2', [event('Erased', { user_id: 'u2' })], NO_STREAM);
    expect((await store.readStream('m-1'))[0].data.place).toEqual({ lat: null, label: 'x' });
  });

  it('given an event sealed elsewhere (replicated), when appended, then it is stored as it came and opens with imported keys', async () => {
    const upstream = new ShreddingEventStore(new SqliteEventStore({ file: ':memory:' }), new SqliteKeyStore({ file: null }), catalogue);
    await upstream.append('user-1', [event('Registered', { user_id: 'u1', email: 'ada@example.com' })], NO_STREAM);
    const [sealed] = await upstream.readSealed({ after: 0, maxCount: 1000 });
    const data = JSON.parse(sealed.data);
    await store.append('user-1', [{ type: 'Registered', data, metadata: JSON.parse(sealed.metadata) }], NO_STREAM);
    expect(await sealedText()).toBe(sealed.data);
    expect((await store.readStream('user-1'))[0].data.email).toBeNull();
    await keys.import([await upstream.keyStore.current('u1', 'personal')]);
    expect((await store.readStream('user-1'))[0].data.email).toBe('ada@example.com');
    await upstream.close();
  });

  it('given appends made in one turn, some with fields to seal and some without, then they reach the log in the order they were made', async () => {
    // a replicated page appends one stream's runs in log order, each expecting the revision the run before leaves
    const appended = await Promise.all([
      store.append('user-1', [event('Registered', { user_id: 'u1', email: 'ada@example.com' })], NO_STREAM),
      store.append('user-1', [event('Renamed', { user_id: 'u1' })], 0),
      store.append('post-1', [event('Posted', { author_id: 'u1', body: 'hello' })], NO_STREAM),
      store.append('post-1', [event('Edited', { changes: { body: 'hello again' } })], 0),
    ]);

    expect(appended.map((r) => r.nextExpectedRevision)).toEqual([0, 1, 0, 1]);
    expect((await store.readStream('post-1'))[1].data).toEqual({ changes: { body: 'hello again' } });
  });

  it('given a subscription, then it delivers opened events and forgets keys an erasure event names', async () => {
    await store.append('user-1', [event('Registered', { user_id: 'u1', email: 'ada@example.com' })], NO_STREAM);
    const seen: unknown[] = [];
    const subscription = store.subscribeToAll({ fromPosition: 0 }, async (events) => {
      for (const e of events) seen.push(e.data.email);
    });
    await store.append('user-3', [event('Registered', { user_id: 'u3', email: 'cy@example.com' })], NO_STREAM);
    for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await subscription.stop();
    expect(seen).toEqual(['ada@example.com', 'cy@example.com']);
  });
});
