import { BatchedProjectionWriter } from '../../infrastructure/projections/batched-writer';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import { USERS, usersProjection } from './users.projection';

/** Applies events as one batch of the projection runner would. */
async function apply(store: EmbeddedReadStore, ...events: RecordedEvent[]): Promise<void> {
  const writer = new BatchedProjectionWriter(store);
  for (const event of events) await usersProjection.apply(event, writer);
  await writer.flush();
}

let position = 0;
function recorded(type: string, data: Record<string, unknown>): RecordedEvent {
  position += 1;
  return {
    streamId: `user-${String(data.user_id)}`,
    type,
    revision: 0,
    position,
    data,
    recordedAt: '2026-11-22T10:00:00.000Z',
    metadata: {
      eventId: `e${position}`,
      correlationId: 'c',
      causationId: null,
      actor: 'a',
      nodeId: 'n',
      occurredAt: '2026-11-22T10:00:00.000Z',
      schemaVersion: 1,
    },
  };
}

const registered = () =>
  recorded('UserRegistered', {
    user_id: 'u1',
    username: 'Alice',
    email: 'alice@example.com',
    display_name: 'Alice',
    role: 'user',
    user_type: 'human',
    password_hash: 'secret-hash',
    registered_at: '2026-11-22T10:00:00.000Z',
  });

describe('users projection', () => {
  it('given UserRegistered, then a user document keyed by id with a lower-cased username key and no password hash', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await apply(store, registered());
    const doc = await store.collection(USERS).findOne({ _id: 'u1' });
    expect(doc).toMatchObject({ id: 'u1', username: 'Alice', username_key: 'alice', role: 'user' });
    expect(JSON.stringify(doc)).not.toContain('secret-hash');
  });

  it('given a role change applied twice (redelivery), then the document is as after one application', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await apply(store, registered());
    const change = recorded('UserRoleChanged', { user_id: 'u1', role: 'operator', previous_role: 'user', changed_by: 'x', at: 't' });
    await apply(store, change);
    const once = await store.collection(USERS).findOne({ _id: 'u1' });
    await apply(store, change);
    expect(await store.collection(USERS).findOne({ _id: 'u1' })).toEqual(once);
  });

  it('given an older event replayed after a newer one, then it does not overwrite the newer state', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const reg = registered();
    await apply(store, reg);
    const toOperator = recorded('UserRoleChanged', { user_id: 'u1', role: 'operator', previous_role: 'user', changed_by: 'x', at: 't' });
    const toAdmin = recorded('UserRoleChanged', { user_id: 'u1', role: 'admin', previous_role: 'operator', changed_by: 'x', at: 't' });
    await apply(store, toOperator);
    await apply(store, toAdmin);
    await apply(store, toOperator);
    await apply(store, reg);
    expect(await store.collection(USERS).findOne({ _id: 'u1' })).toMatchObject({ role: 'admin' });
  });

  it('given a login for a user not projected, then no partial document is created', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await apply(store, recorded('UserLoggedIn', { user_id: 'ghost', token_id: 't', method: 'password', at: 't' }));
    expect(await store.collection(USERS).countDocuments()).toBe(0);
  });
});
