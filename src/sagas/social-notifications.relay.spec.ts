import { recorded } from '../../test/support/projection-kit';
import { SocialNotificationRelay } from './social-notifications.relay';

describe('SocialNotificationRelay', () => {
  it('given a follow among other events, then one message goes to com.svc.social keyed by the followed user', () => {
    const follow = recorded('UserFollowed', { follower_id: 'ann', followee_id: 'bob', follower_username: 'ann', at: '2026-11-23T10:00:00.000Z' });
    const other = recorded('UserBanned', { user_id: 'cat', banned_by: 'admin', at: '2026-11-23T10:00:00.000Z' });
    const routed = new SocialNotificationRelay().route([other, follow]);
    expect([...routed.keys()]).toEqual(['com.svc.social']);
    const [message] = routed.get('com.svc.social')!;
    expect(message.key).toBe('bob');
    expect(message.value).toEqual({
      id: String(follow.position),
      topic: 'com.svc.social.bob',
      at: follow.metadata.occurredAt,
      payload: {
        id: `${follow.metadata.eventId}-0`,
        user_id: 'bob',
        type: 'notification',
        notification_type: 'follow',
        source_user_id: 'ann',
        target_type: 'user',
        target_id: 'ann',
        message: 'ann started following you',
        is_read: false,
        created_at: follow.metadata.occurredAt,
      },
    });
  });

  it('given no notifying event, then nothing is routed', () => {
    expect(new SocialNotificationRelay().route([recorded('UserBanned', { user_id: 'cat', banned_by: 'admin', at: '2026-11-23T10:00:00.000Z' })]).size).toBe(0);
  });
});
