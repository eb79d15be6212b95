import { deciderKit } from '../../../test/support/decider-kit';
import { notificationInboxDecider } from './notification-inbox';

const now = new Date('2026-11-23T10:00:00.000Z');
const { given } = deciderKit(notificationInboxDecider, now);

describe('notification inbox', () => {
  it('given ids, when marking them read, then each is named once', () =>
    given()
      .when({ kind: 'markRead', userId: 'ann', ids: ['n1', 'n2', 'n1'] })
      .then({ type: 'NotificationsMarkedRead', data: { user_id: 'ann', notification_ids: ['n1', 'n2'], at: now.toISOString() } }));

  it('given no ids, when marking read, then nothing is recorded', () => given().when({ kind: 'markRead', userId: 'ann', ids: [] }).then());

  it('when marking all read, then the time bounds what is read', () =>
    given().when({ kind: 'markAllRead', userId: 'ann' }).then({ type: 'AllNotificationsMarkedRead', data: { user_id: 'ann', at: now.toISOString() } }));
});
