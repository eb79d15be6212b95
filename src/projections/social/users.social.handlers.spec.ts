import { applyAll, recorded } from '../../../test/support/projection-kit';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { USERS, usersProjection } from '../accounts/users.projection';

const registered = (userId: string) =>
  recorded('UserRegistered', {
    user_id: userId,
    username: userId,
    email: `${userId}@example.com`,
    display_name: userId,
    role: 'user',
    user_type: 'human',
    password_hash: 'h',
    registered_at: '2026-11-23T09:00:00.000Z',
  });

describe('users read model: the social accounts events', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  const user = (id: string) => store.collection(USERS).findOne({ _id: id });
  const at = '2026-11-23T10:00:00.000Z';

  it('given follows and an unfollow, then each side counts what holds, and a replayed follow counts once', async () => {
    const accounts = [registered('ann'), registered('bob'), registered('cat')];
    const follow = recorded('UserFollowed', { follower_id: 'ann', followee_id: 'bob', follower_username: 'ann', at });
    await applyAll(usersProjection, store, ...accounts, follow);
    await applyAll(usersProjection, store, follow);
    await applyAll(
      usersProjection,
      store,
      recorded('UserFollowed', { follower_id: 'cat', followee_id: 'bob', follower_username: 'cat', at }),
      recorded('UserUnfollowed', { follower_id: 'ann', followee_id: 'bob', at }),
    );
    expect(await user('bob')).toMatchObject({ follower_count: 1, following_count: 0 });
    expect(await user('ann')).toMatchObject({ follower_count: 0, following_count: 0 });
    expect(await user('cat')).toMatchObject({ following_count: 1 });
  });

  it('given a ban and an unban, then is_banned follows them', async () => {
    await applyAll(usersProjection, store, registered('ann'), recorded('UserBanned', { user_id: 'ann', banned_by: 'admin', at }));
    expect(await user('ann')).toMatchObject({ is_banned: true });
    await applyAll(usersProjection, store, recorded('UserUnbanned', { user_id: 'ann', unbanned_by: 'admin', at }));
    expect(await user('ann')).toMatchObject({ is_banned: false });
  });

  it('given an anonymised user, then the document keeps no personal data', async () => {
    await applyAll(
      usersProjection,
      store,
      registered('ann'),
      recorded('UserProfileUpdated', { user_id: 'ann', changes: { bio: 'about me', avatar_url: 'https://example.com/a.png' }, updated_by: 'ann', at }),
      recorded('UserHandleChanged', { user_id: 'ann', handle: 'annie', previous_handle: null, at }),
      recorded('UserAnonymized', { user_id: 'ann', username: 'deleted_0123456789ab', display_name: 'Deleted User', requested_by: 'ann', at }),
    );
    expect(await user('ann')).toMatchObject({
      username: 'deleted_0123456789ab',
      username_key: 'deleted_0123456789ab',
      display_name: 'Deleted User',
      email: null,
      bio: '',
      avatar_url: null,
      handle: null,
      anonymized_at: at,
    });
  });
});

describe('users read model: the wallet XP behind the User record level', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  const at = '2026-11-23T10:00:00.000Z';
  const reward = (xp: number, source: string) =>
    recorded('RewardGranted', { user_id: 'ann', action: 'create_post', pulse: 0, spark: 0, signal: 0, xp, source_type: 'create_post', source_id: source, granted_at: at });

  it('given rewards and a check-in with XP, then the user holds their sum, and a replayed reward counts once', async () => {
    const ann = registered('ann');
    const first = reward(60, 'p1');
    await applyAll(usersProjection, store, ann, first, reward(35, 'p2'));
    await applyAll(usersProjection, store, first);
    await applyAll(usersProjection, store, recorded('DailyCheckedIn', { user_id: 'ann', day: '2026-11-23', streak_days: 1, streak_best: 1, spark_bonus: 1, xp_bonus: 5, checked_in_at: at }));

    expect(await store.collection(USERS).findOne({ _id: 'ann' })).toMatchObject({ xp: 100 });
  });
});
