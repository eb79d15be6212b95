import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { EmbeddedReadStore } from '../infrastructure/read-store/embedded/embedded-read-store';
import { ACCOUNT_STATS, ACCOUNT_STATS_ID, accountStatsProjection } from './account-stats.projection';

const at = (position: number, type: string, data: Record<string, unknown> = {}): RecordedEvent => ({
  streamId: 'user-1',
  type,
  revision: position - 1,
  position,
  data,
  recordedAt: 't',
  metadata: { eventId: `e${position}`, correlationId: 'c', causationId: null, actor: 'a', nodeId: 'n', occurredAt: 't', schemaVersion: 1 },
});

describe('account stats projection', () => {
  it('given registrations and logins, then the counters add up', async () => {
    const store = new EmbeddedReadStore({ file: null });
    for (const e of [at(1, 'UserRegistered', { user_type: 'human' }), at(2, 'GuestRegistered'), at(3, 'UserLoggedIn')]) {
      await accountStatsProjection.apply(e, store);
    }
    expect(await store.collection(ACCOUNT_STATS).findOne({ _id: ACCOUNT_STATS_ID })).toMatchObject({
      total_users: 2,
      total_humans: 1,
      total_guests: 1,
      logins: 1,
    });
  });

  it('given the same events delivered again (replay after a crash), then nothing is counted twice', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [at(1, 'UserRegistered', { user_type: 'human' }), at(2, 'UserLoggedIn'), at(3, 'UserLoggedIn')];
    for (const e of events) await accountStatsProjection.apply(e, store);
    for (const e of events) await accountStatsProjection.apply(e, store);
    expect(await store.collection(ACCOUNT_STATS).findOne({ _id: ACCOUNT_STATS_ID })).toMatchObject({ total_users: 1, logins: 2 });
  });
});
