import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import { BatchedProjectionWriter } from '../../infrastructure/projections/batched-writer';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
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

/** Applies events as one batch of the projection runner would. */
async function apply(store: EmbeddedReadStore, ...events: RecordedEvent[]): Promise<void> {
  const writer = new BatchedProjectionWriter(store);
  for (const event of events) await accountStatsProjection.apply(event, writer);
  await writer.flush();
}

describe('account stats projection', () => {
  it('given registrations and logins, then the counters add up', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await apply(store, at(1, 'UserRegistered', { user_type: 'human' }), at(2, 'GuestRegistered'), at(3, 'UserLoggedIn'));
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
    await apply(store, ...events);
    await apply(store, ...events);
    for (const e of events) await apply(store, e); // redelivered one by one, in batches of their own
    expect(await store.collection(ACCOUNT_STATS).findOne({ _id: ACCOUNT_STATS_ID })).toMatchObject({ total_users: 1, logins: 2 });
  });
});
