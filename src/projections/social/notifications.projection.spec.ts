import { applyAll, recorded } from '../../../test/support/projection-kit';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { NOTIFICATIONS, notificationsProjection } from './notifications.projection';

const followed = (follower: string, followee: string, at = '2026-11-23T10:00:00.000Z') =>
  recorded('UserFollowed', { follower_id: follower, followee_id: followee, follower_username: follower, at }, { at });

describe('notifications read model', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  const all = () => store.collection(NOTIFICATIONS).find({}, { sort: { created_at: 1 } });

  it('given a follow, then the followed user has one unread follow notification naming the follower', async () => {
    const event = followed('ann', 'bob');
    await applyAll(notificationsProjection, store, event);
    expect(await all()).toEqual([
      expect.objectContaining({
        id: `${event.metadata.eventId}-0`,
        user_id: 'bob',
        type: 'follow',
        source_user_id: 'ann',
        target_type: 'user',
        target_id: 'ann',
        message: 'ann started following you',
        is_read: false,
      }),
    ]);
  });

  it('given the same event applied twice (a replay), then there is still one notification', async () => {
    const event = followed('ann', 'bob');
    await applyAll(notificationsProjection, store, event);
    await applyAll(notificationsProjection, store, event);
    expect(await all()).toHaveLength(1);
  });

  it('given notifications, when the owner marks one read, then only that one of the owner’s changes; another user naming it changes nothing', async () => {
    const first = followed('ann', 'bob', '2026-11-23T10:00:00.000Z');
    const second = followed('cat', 'bob', '2026-11-23T10:01:00.000Z');
    const id = `${first.metadata.eventId}-0`;
    await applyAll(
      notificationsProjection,
      store,
      first,
      second,
      recorded('NotificationsMarkedRead', { user_id: 'cat', notification_ids: [id], at: '2026-11-23T10:02:00.000Z' }),
    );
    expect((await all()).map((n) => n.is_read)).toEqual([false, false]);
    await applyAll(notificationsProjection, store, recorded('NotificationsMarkedRead', { user_id: 'bob', notification_ids: [id], at: '2026-11-23T10:03:00.000Z' }));
    expect((await all()).map((n) => n.is_read)).toEqual([true, false]);
  });

  it('given read-all, then the notifications created up to then are read and a later one is not', async () => {
    await applyAll(
      notificationsProjection,
      store,
      followed('ann', 'bob', '2026-11-23T10:00:00.000Z'),
      recorded('AllNotificationsMarkedRead', { user_id: 'bob', at: '2026-11-23T10:05:00.000Z' }),
      followed('cat', 'bob', '2026-11-23T10:06:00.000Z'),
    );
    expect((await all()).map((n) => n.is_read)).toEqual([true, false]);
  });

  it('given a user is anonymised, then their own notifications go and those naming them say Deleted User', async () => {
    await applyAll(notificationsProjection, store, followed('ann', 'bob'), followed('cat', 'ann'));
    await applyAll(
      notificationsProjection,
      store,
      recorded('UserAnonymized', { user_id: 'ann', username: 'deleted_0123456789ab', display_name: 'Deleted User', requested_by: 'ann', at: '2026-11-23T11:00:00.000Z' }),
    );
    expect((await all()).map((n) => [n.user_id, n.message])).toEqual([['bob', 'Deleted User started following you']]);
  });
});
