import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { SYNC_QUEUE_ITEMS, SYNC_QUEUE_STATS, type SyncQueueItemDoc, type SyncQueueStatsDoc, syncQueueProjection as projection } from './sync-queue.projection';

const streamId = 'syncQueue-n1';
const at = '2026-12-07T12:00:00.000Z';
const queued = (id: string) =>
  recorded('SyncItemQueued', { item_id: id, node_id: 'n1', target_tier: 'central', operation_type: 'sync_post', payload: { id }, max_retries: 5, created_at: at }, { streamId });
const sent = (...ids: string[]) => recorded('SyncBatchSent', { node_id: 'n1', item_ids: ids, attempted_at: at }, { streamId });
const item = (store: EmbeddedReadStore, id: string) => store.collection<SyncQueueItemDoc>(SYNC_QUEUE_ITEMS).findOne({ _id: id });

describe('syncQueue projection', () => {
  it('given items queued, sent and settled, replayed, then one is completed, one failed, one dead, and the drop and last sync counted once', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [
      queued('a'),
      queued('b'),
      queued('c'),
      recorded('SyncItemDropped', { item_id: 'd', node_id: 'n1', operation_type: 'sync_post', dropped_at: at, cap: 3 }, { streamId }),
      sent('a', 'b', 'c'),
      recorded(
        'SyncBatchSettled',
        { node_id: 'n1', completed: ['a'], failed: [{ item_id: 'b', error: 'HTTP 500', retry_count: 1 }], dead: [{ item_id: 'c', error: 'gone', retry_count: 5 }], settled_at: at },
        { streamId },
      ),
    ];
    await applyAll(projection, store, ...events, ...events);

    expect(await item(store, 'a')).toMatchObject({ status: 'completed', completed_at: at, retry_count: 0 });
    expect(await item(store, 'b')).toMatchObject({ status: 'failed', retry_count: 1, error_message: 'HTTP 500', last_attempt_at: at });
    expect(await item(store, 'c')).toMatchObject({ status: 'dead', retry_count: 5, error_message: 'gone' });
    expect(await store.collection<SyncQueueStatsDoc>(SYNC_QUEUE_STATS).findOne({ _id: 'n1' })).toMatchObject({ dropped: 1, last_sync_at: at });
  });
});
