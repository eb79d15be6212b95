import type { UserType } from '../../aggregates/accounts/user.events';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { ACCOUNT_STATS, ACCOUNT_STATS_ID, accountStatsProjection as projection } from './account-stats.projection';

const registered = (userId: string, userType: Exclude<UserType, 'guest'>) =>
  recorded('UserRegistered', {
    user_id: userId,
    username: userId,
    email: `${userId}@example.com`,
    display_name: userId,
    role: userType === 'agent' ? 'agent' : 'user',
    user_type: userType,
    password_hash: 'h',
    registered_at: 't',
  });
const guest = (userId: string) =>
  recorded('GuestRegistered', { user_id: userId, username: userId, display_name: userId, recovery_code_hash: 'r', device_id: null, registered_at: 't' });
const loggedIn = (userId: string) => recorded('UserLoggedIn', { user_id: userId, token_id: 't', method: 'password', at: 't' });
const stats = (store: EmbeddedReadStore) => store.collection(ACCOUNT_STATS).findOne({ _id: ACCOUNT_STATS_ID });

describe('account stats projection', () => {
  it('given registrations and logins, then the counters add up', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, registered('u1', 'human'), guest('g1'), loggedIn('u1'));
    expect(await stats(store)).toMatchObject({ total_users: 2, total_humans: 1, total_guests: 1, logins: 1 });
  });

  it('given an agent registration, then it counts as a user and an agent, not a human', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, registered('a1', 'agent'));
    expect(await stats(store)).toMatchObject({ total_users: 1, total_humans: 0, total_agents: 1 });
  });

  it('given a failed login and an issued key, then each has its counter', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      recorded('UserLoginFailed', { user_id: 'u1', at: 't' }),
      recorded('ApiKeyIssued', { key_id: 'k1', user_id: 'u1', name: 'k', tier: 'free', secret_sha256: 's', issued_at: 't' }),
    );
    expect(await stats(store)).toMatchObject({ failed_logins: 1, api_keys_issued: 1 });
  });

  it('given counted events, when they are delivered again (replay after a crash), then nothing is counted twice', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [registered('u1', 'human'), loggedIn('u1'), loggedIn('u1')];
    await applyAll(projection, store, ...events);
    await applyAll(projection, store, ...events);
    for (const e of events) await applyAll(projection, store, e); // redelivered one by one, in batches of their own
    expect(await stats(store)).toMatchObject({ total_users: 1, logins: 2 });
  });
});
