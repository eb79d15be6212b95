import { deciderKit } from '../../../test/support/decider-kit';
import { type SyncBatchSettled, type SyncItemQueued, type SyncQueueCommand, type SyncQueueEvent, syncQueueDecider, SYNC_MAX_RETRIES } from './sync-queue';

const now = new Date('2026-12-07T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const { given, history } = deciderKit(syncQueueDecider, now);

const enqueue = (itemId: string, cap = 10_000): SyncQueueCommand => ({ kind: 'enqueue', itemId, nodeId: 'n1', targetTier: 'central', operationType: 'sync_post', payload: { id: itemId }, cap });
const start = (batchSize = 50, staleAfterMs = 20_000): SyncQueueCommand => ({ kind: 'startBatch', nodeId: 'n1', batchSize, staleAfterMs });
const settle = (attempted: string[], processed: string[], errors: Record<string, string> = {}, batchError: string | null = null): SyncQueueCommand => ({
  kind: 'settleBatch',
  nodeId: 'n1',
  attempted,
  processed,
  errors,
  batchError,
});
const queued = (itemId: string): SyncItemQueued => ({
  type: 'SyncItemQueued',
  data: { item_id: itemId, node_id: 'n1', target_tier: 'central', operation_type: 'sync_post', payload: { id: itemId }, max_retries: SYNC_MAX_RETRIES, created_at: now.toISOString() },
});
const settled = (data: Partial<SyncBatchSettled['data']>): SyncBatchSettled => ({ type: 'SyncBatchSettled', data: { node_id: 'n1', completed: [], failed: [], dead: [], settled_at: now.toISOString(), ...data } });
/** A batch of `ids` sent and failed `times` times as a whole. */
const failedTimes = (ids: string[], times: number): SyncQueueEvent[] => history(...ids.map((id) => enqueue(id)), ...Array.from({ length: times }, () => [start(), settle(ids, [], {}, 'connection refused')]).flat());

describe('sync queue', () => {
  it('given an empty queue, when an item is enqueued, then it is queued with max_retries 5', () => given().when(enqueue('a')).then(queued('a')));

  it('given a live item, when the same id is enqueued again, then nothing is recorded', () => given(queued('a')).when(enqueue('a')).thenNothing());

  it('given the cap of queued and failed items is reached, when another is enqueued, then it is dropped and counted', () => {
    const past = history(enqueue('a', 2), enqueue('b', 2));
    given(...past)
      .when(enqueue('c', 2))
      .then({ type: 'SyncItemDropped', data: { item_id: 'c', node_id: 'n1', operation_type: 'sync_post', dropped_at: now.toISOString(), cap: 2 } });
  });

  it('given a dropped item, then the state counts it', () => {
    expect(given(...history(enqueue('a', 1), enqueue('b', 1))).state()).toMatchObject({ dropped: 1 });
  });

  it('given items in progress, when the cap is reached by queued and failed ones only, then an in-progress item holds no place', () => {
    const past = history(enqueue('a', 1), start());
    given(...past).when(enqueue('b', 1)).then(queued('b'));
  });

  it('given an unknown operation type, when enqueued, then it is refused', () =>
    given()
      .when({ ...(enqueue('a') as Extract<SyncQueueCommand, { kind: 'enqueue' }>), operationType: 'explode' as never })
      .thenRefused('invalid', /Unknown operation type/));

  it('given three queued items, when a batch of two starts, then the two oldest go in progress', () =>
    given(...history(enqueue('a'), enqueue('b'), enqueue('c')))
      .when(start(2))
      .then({ type: 'SyncBatchSent', data: { node_id: 'n1', item_ids: ['a', 'b'], attempted_at: now.toISOString() } }));

  it('given nothing due, when a batch starts, then nothing is recorded', () => given(...history(enqueue('a'), start())).when(start()).thenNothing());

  it('given an item in progress longer than the stale time (a sender that stopped), when a batch starts, then it is sent again', () =>
    given(...history(enqueue('a'), start()))
      .when(start(50, 20_000), later(20_000))
      .then({ type: 'SyncBatchSent', data: { node_id: 'n1', item_ids: ['a'], attempted_at: later(20_000).toISOString() } }));

  it('given a batch in progress, when the parent processed one id only, then it completes and the missing one fails with retry_count 1', () =>
    given(...history(enqueue('a'), enqueue('b'), start()))
      .when(settle(['a', 'b'], ['a']))
      .then(settled({ completed: ['a'], failed: [{ item_id: 'b', error: 'not processed by the parent', retry_count: 1 }] })));

  it('given a batch in progress, when the parent names an error for an id, then that error is recorded', () =>
    given(...history(enqueue('a'), start()))
      .when(settle(['a'], [], { a: 'bad payload' }))
      .then(settled({ failed: [{ item_id: 'a', error: 'bad payload', retry_count: 1 }] })));

  it('given a failed item, when the next batch starts, then it is retried', () =>
    given(...failedTimes(['a'], 1))
      .when(start())
      .then({ type: 'SyncBatchSent', data: { node_id: 'n1', item_ids: ['a'], attempted_at: now.toISOString() } }));

  it('given an item failed 4 times, when it fails a 5th time, then it is dead and leaves the queue', () => {
    const past = failedTimes(['a'], 4);
    const state = given(...past).state();
    expect(state.items.get('a')).toMatchObject({ status: 'failed', retry_count: 4 });
    const after = given(...past, { type: 'SyncBatchSent', data: { node_id: 'n1', item_ids: ['a'], attempted_at: now.toISOString() } }).when(settle(['a'], [], {}, 'connection refused'));
    after.then(settled({ dead: [{ item_id: 'a', error: 'connection refused', retry_count: 5 }] }));
    expect(after.state()).toMatchObject({ dead: 1 });
    expect(after.state().items.has('a')).toBe(false);
  });

  it('given a dead item, when the next batch starts, then it is not sent', () => given(...failedTimes(['a'], 5)).when(start()).thenNothing());

  it('given a batch already settled, when the same answer is settled again, then nothing is recorded (idempotent)', () =>
    given(...history(enqueue('a'), start(), settle(['a'], ['a'])))
      .when(settle(['a'], ['a']))
      .thenNothing());

  it('given a completed item, then it leaves the live items and is counted', () => {
    const state = given(...history(enqueue('a'), start(), settle(['a'], ['a']))).state();
    expect(state.items.size).toBe(0);
    expect(state.completed).toBe(1);
  });

  it('given an id the parent reports processed that was not in the batch, then it is ignored', () =>
    given(...history(enqueue('a'), enqueue('b'), start(1)))
      .when(settle(['a'], ['a', 'b']))
      .then(settled({ completed: ['a'] })));

  it('given a batch in progress, when it is released (it never reached the parent), then its items are queued again with the error and no retry counted', () => {
    const past = history(enqueue('a'), enqueue('b'), start());
    const after = given(...past).when({ kind: 'releaseBatch', nodeId: 'n1', attempted: ['a', 'b'], error: 'connection refused' });
    after.then({ type: 'SyncBatchReleased', data: { node_id: 'n1', item_ids: ['a', 'b'], error: 'connection refused', released_at: now.toISOString() } });
    expect([...after.state().items.values()].map((i) => [i.status, i.retry_count, i.error_message])).toEqual([
      ['queued', 0, 'connection refused'],
      ['queued', 0, 'connection refused'],
    ]);
  });

  it('given items not in progress, when a batch naming them is released, then nothing is recorded', () =>
    given(...history(enqueue('a'))).when({ kind: 'releaseBatch', nodeId: 'n1', attempted: ['a', 'x'], error: 'connection refused' }).thenNothing());
});
