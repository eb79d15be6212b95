import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { USERS, usersProjection as projection } from './users.projection';

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
const roleChanged = (role: 'operator' | 'admin', previous: 'user' | 'operator') =>
  recorded('UserRoleChanged', { user_id: 'u1', role, previous_role: previous, changed_by: 'x', at: 't' });

describe('users projection', () => {
  it('given UserRegistered, then a user document keyed by id with a lower-cased username key and no password hash', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, registered());
    const doc = await store.collection(USERS).findOne({ _id: 'u1' });
    expect(doc).toMatchObject({ id: 'u1', username: 'Alice', username_key: 'alice', role: 'user' });
    expect(JSON.stringify(doc)).not.toContain('secret-hash');
  });

  it('given a role change, when it is redelivered, then the document is as after one application', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const change = roleChanged('operator', 'user');
    await applyAll(projection, store, registered(), change);
    const once = await store.collection(USERS).findOne({ _id: 'u1' });
    await applyAll(projection, store, change);
    expect(await store.collection(USERS).findOne({ _id: 'u1' })).toEqual(once);
  });

  it('given two role changes, when older events are replayed after them, then the newer state stays', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const reg = registered();
    const toOperator = roleChanged('operator', 'user');
    await applyAll(projection, store, reg, toOperator, roleChanged('admin', 'operator'));
    await applyAll(projection, store, toOperator, reg);
    expect(await store.collection(USERS).findOne({ _id: 'u1' })).toMatchObject({ role: 'admin' });
  });

  it('given a login for a user not projected, then no partial document is created', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, recorded('UserLoggedIn', { user_id: 'ghost', token_id: 't', method: 'password', at: 't' }));
    expect(await store.collection(USERS).countDocuments()).toBe(0);
  });
});
