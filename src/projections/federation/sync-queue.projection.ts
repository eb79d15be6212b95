/**
 * `syncQueue`: this node's hierarchical sync queue (social-routes §19), for
 * GET /sync/queue and /peers/health:
 * - `sync_queue_items` (`_id` the item id): the §19 item without its payload,
 *   status queued, in_progress, failed, completed or dead;
 * - `sync_queue_stats` (`_id` the node id): `dropped`, the items refused by
 *   the cap, and `last_sync_at`, the last batch the parent answered.
 */
import type { SyncFailure } from '../../aggregates/federation/sync-queue';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const SYNC_QUEUE_ITEMS = 'sync_queue_items';
export const SYNC_QUEUE_STATS = 'sync_queue_stats';

export interface SyncQueueItemDoc extends Doc {
  node_id: string;
  target_tier: string;
  operation_type: string;
  status: 'queued' | 'in_progress' | 'failed' | 'completed' | 'dead';
  retry_count: number;
  max_retries: number;
  created_at: string;
  last_attempt_at: string | null;
  completed_at: string | null;
  error_message: string | null;
}

export interface SyncQueueStatsDoc extends Doc {
  dropped?: number;
  last_sync_at?: string;
}

export const syncQueueProjection = defineProjection({
  name: 'syncQueue',
  version: 1,
  collections: [SYNC_QUEUE_ITEMS, SYNC_QUEUE_STATS],
  indexes: [{ collection: SYNC_QUEUE_ITEMS, spec: { keys: { status: 1, created_at: 1 } } }],
  on: {
    SyncItemQueued: (event, writer) => {
      const d = event.data;
      applyOnce(writer, SYNC_QUEUE_ITEMS, d.item_id, event, {
        $set: {
          node_id: d.node_id,
          target_tier: d.target_tier,
          operation_type: d.operation_type,
          status: 'queued',
          retry_count: 0,
          max_retries: d.max_retries,
          created_at: d.created_at,
          last_attempt_at: null,
          completed_at: null,
          error_message: null,
        },
      });
    },
    SyncItemDropped: (event, writer) => {
      applyOnce(writer, SYNC_QUEUE_STATS, event.data.node_id, event, { $inc: { dropped: 1 } });
    },
    SyncBatchSent: (event, writer) => {
      for (const id of event.data.item_ids) applyOnce(writer, SYNC_QUEUE_ITEMS, id, event, { $set: { status: 'in_progress', last_attempt_at: event.data.attempted_at } }, { upsert: false });
    },
    SyncBatchSettled: (event, writer) => {
      const d = event.data;
      const fail = (f: SyncFailure, status: 'failed' | 'dead') =>
        applyOnce(writer, SYNC_QUEUE_ITEMS, f.item_id, event, { $set: { status, retry_count: f.retry_count, error_message: f.error } }, { upsert: false });
      for (const id of d.completed) applyOnce(writer, SYNC_QUEUE_ITEMS, id, event, { $set: { status: 'completed', completed_at: d.settled_at, error_message: null } }, { upsert: false });
      for (const f of d.failed) fail(f, 'failed');
      for (const f of d.dead) fail(f, 'dead');
      if (d.completed.length > 0) applyOnce(writer, SYNC_QUEUE_STATS, d.node_id, event, { $set: { last_sync_at: d.settled_at } });
    },
    SyncBatchReleased: (event, writer) => {
      for (const id of event.data.item_ids) applyOnce(writer, SYNC_QUEUE_ITEMS, id, event, { $set: { status: 'queued', error_message: event.data.error } }, { upsert: false });
    },
  },
});
