/**
 * The hierarchical sync queue of a node (social-routes §19, "Queue model"),
 * one stream per node, `syncQueue-<nodeId>`: the items this node sends up to
 * its parent (SYNC_PARENT_URL) in batches.
 *
 * An item is `{id, node_id, target_tier, operation_type, status, retry_count,
 * max_retries (5), created_at, last_attempt_at, completed_at, error_message}`
 * with its payload. Status runs queued → in_progress → completed; a failure
 * goes to failed and is retried; the failure that brings retry_count to
 * max_retries makes it dead. At most `cap` (10000) items are queued or failed
 * at once: a new item beyond that is dropped and counted (`SyncItemDropped`).
 *
 * One stream, so the cap is exact and concurrent enqueues serialise on its
 * revision. The state holds the live items only (queued, in progress,
 * failed) and counters of the finished ones, so it stays as small as the
 * queue. Enqueueing an id that is live records nothing; an id that already
 * finished is not remembered and is queued again.
 *
 * A batch: `startBatch` takes the due items (queued and failed, oldest first,
 * and in-progress ones whose attempt is older than `staleAfterMs`: a sender
 * that crashed mid-batch) up to the batch size and marks them in progress
 * (`SyncBatchSent`); `settleBatch` records the parent's answer in one event
 * (`SyncBatchSettled`): the ids it processed complete, every other attempted
 * id fails with the parent's error for it, or the batch's error.
 * `releaseBatch` is the other end of a batch that never reached the parent
 * (`SyncBatchReleased`): its items are queued again with the error noted and
 * no retry counted. The §19 sender settles such a batch as failed (the
 * original's rule); a regional node's outbox releases it, so that client
 * writes wait out an outage of central instead of dying in it
 * (modules/federation/regional-writes.ts).
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever, DomainError } from '../shared/domain-error';

export const SYNC_OPERATION_TYPES = [
  'register_agent',
  'sync_post',
  'update_stats',
  'register_node',
  'coding_task_assign',
  'coding_submission',
  'sync_user',
  'revoke_token',
  'sync_blocklist',
  // not in the original: a client's write made at a regional node, sent to the central node it replays (regional-writes.ts)
  'regional_write',
] as const;
export type SyncOperationType = (typeof SYNC_OPERATION_TYPES)[number];
export const isSyncOperationType = (value: unknown): value is SyncOperationType => (SYNC_OPERATION_TYPES as readonly unknown[]).includes(value);

export const SYNC_MAX_RETRIES = 5;
export const SYNC_QUEUE_CAP = 10_000;

export type SyncItemStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'dead';

export interface SyncItem {
  id: string;
  node_id: string;
  target_tier: string;
  operation_type: SyncOperationType;
  payload: Record<string, unknown>;
  status: 'queued' | 'in_progress' | 'failed';
  retry_count: number;
  max_retries: number;
  created_at: string;
  last_attempt_at: string | null;
  error_message: string | null;
}

export type SyncItemQueued = DomainEvent<
  'SyncItemQueued',
  { item_id: string; node_id: string; target_tier: string; operation_type: SyncOperationType; payload: Record<string, unknown>; max_retries: number; created_at: string }
>;
export type SyncItemDropped = DomainEvent<'SyncItemDropped', { item_id: string; node_id: string; operation_type: SyncOperationType; dropped_at: string; cap: number }>;
export type SyncBatchSent = DomainEvent<'SyncBatchSent', { node_id: string; item_ids: string[]; attempted_at: string }>;
export interface SyncFailure {
  item_id: string;
  error: string;
  retry_count: number;
}
export type SyncBatchSettled = DomainEvent<
  'SyncBatchSettled',
  { node_id: string; completed: string[]; failed: SyncFailure[]; dead: SyncFailure[]; settled_at: string }
>;
export type SyncBatchReleased = DomainEvent<'SyncBatchReleased', { node_id: string; item_ids: string[]; error: string; released_at: string }>;
export type SyncQueueEvent = SyncItemQueued | SyncItemDropped | SyncBatchSent | SyncBatchSettled | SyncBatchReleased;

export const syncQueueStreamId = (nodeId: string): string => `syncQueue-${nodeId}`;

export interface SyncQueueState {
  /** live items (queued, in progress, failed), in the order they were queued */
  items: ReadonlyMap<string, SyncItem>;
  completed: number;
  dead: number;
  dropped: number;
}

export type SyncQueueCommand =
  | { kind: 'enqueue'; itemId: string; nodeId: string; targetTier: string; operationType: SyncOperationType; payload: Record<string, unknown>; cap: number }
  | { kind: 'startBatch'; nodeId: string; batchSize: number; staleAfterMs: number }
  | { kind: 'settleBatch'; nodeId: string; attempted: string[]; processed: string[]; errors: Record<string, string>; batchError: string | null }
  | { kind: 'releaseBatch'; nodeId: string; attempted: string[]; error: string };

/** How many live items hold a place under the cap (queued and failed; §19 counts those two). */
export const heldPlaces = (state: SyncQueueState): number => [...state.items.values()].filter((i) => i.status !== 'in_progress').length;

/** The items a batch sends now: queued and failed ones, and in-progress ones whose attempt is stale, oldest first. */
export function dueItems(state: SyncQueueState, now: Date, batchSize: number, staleAfterMs: number): SyncItem[] {
  const due: SyncItem[] = [];
  for (const item of state.items.values()) {
    if (due.length >= batchSize) break;
    const stale = item.status === 'in_progress' && item.last_attempt_at !== null && now.getTime() - Date.parse(item.last_attempt_at) >= staleAfterMs;
    if (item.status !== 'in_progress' || stale) due.push(item);
  }
  return due;
}

export const syncQueueDecider: Decider<SyncQueueState, SyncQueueCommand, SyncQueueEvent> = {
  initialState: { items: new Map(), completed: 0, dead: 0, dropped: 0 },
  evolve(state, event) {
    switch (event.type) {
      case 'SyncItemQueued': {
        const d = event.data;
        const items = new Map(state.items);
        items.set(d.item_id, {
          id: d.item_id,
          node_id: d.node_id,
          target_tier: d.target_tier,
          operation_type: d.operation_type,
          payload: d.payload,
          status: 'queued',
          retry_count: 0,
          max_retries: d.max_retries,
          created_at: d.created_at,
          last_attempt_at: null,
          error_message: null,
        });
        return { ...state, items };
      }
      case 'SyncItemDropped':
        return { ...state, dropped: state.dropped + 1 };
      case 'SyncBatchSent': {
        const items = new Map(state.items);
        for (const id of event.data.item_ids) {
          const item = items.get(id);
          if (item) items.set(id, { ...item, status: 'in_progress', last_attempt_at: event.data.attempted_at });
        }
        return { ...state, items };
      }
      case 'SyncBatchSettled': {
        const d = event.data;
        const items = new Map(state.items);
        for (const id of d.completed) items.delete(id);
        for (const f of d.dead) items.delete(f.item_id);
        for (const f of d.failed) {
          const item = items.get(f.item_id);
          if (item) items.set(f.item_id, { ...item, status: 'failed', retry_count: f.retry_count, error_message: f.error });
        }
        return { ...state, items, completed: state.completed + d.completed.length, dead: state.dead + d.dead.length };
      }
      case 'SyncBatchReleased': {
        const items = new Map(state.items);
        for (const id of event.data.item_ids) {
          const item = items.get(id);
          if (item) items.set(id, { ...item, status: 'queued', error_message: event.data.error });
        }
        return { ...state, items };
      }
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'enqueue': {
        if (!isSyncOperationType(command.operationType)) throw new DomainError('invalid', `Unknown operation type: ${String(command.operationType)}`);
        if (state.items.has(command.itemId)) return [];
        if (heldPlaces(state) >= command.cap) {
          return [{ type: 'SyncItemDropped', data: { item_id: command.itemId, node_id: command.nodeId, operation_type: command.operationType, dropped_at: at, cap: command.cap } }];
        }
        return [
          {
            type: 'SyncItemQueued',
            data: {
              item_id: command.itemId,
              node_id: command.nodeId,
              target_tier: command.targetTier,
              operation_type: command.operationType,
              payload: command.payload,
              max_retries: SYNC_MAX_RETRIES,
              created_at: at,
            },
          },
        ];
      }
      case 'startBatch': {
        const due = dueItems(state, now, command.batchSize, command.staleAfterMs);
        return due.length === 0 ? [] : [{ type: 'SyncBatchSent', data: { node_id: command.nodeId, item_ids: due.map((i) => i.id), attempted_at: at } }];
      }
      case 'settleBatch': {
        const processed = new Set(command.processed);
        const completed: string[] = [];
        const failed: SyncFailure[] = [];
        const dead: SyncFailure[] = [];
        for (const id of new Set(command.attempted)) {
          const item = state.items.get(id);
          // settled already (a stale batch sent again and answered twice), or never queued
          if (!item || item.status !== 'in_progress') continue;
          if (processed.has(id)) {
            completed.push(id);
            continue;
          }
          const failure = { item_id: id, error: command.errors[id] ?? command.batchError ?? 'not processed by the parent', retry_count: item.retry_count + 1 };
          (failure.retry_count >= item.max_retries ? dead : failed).push(failure);
        }
        if (completed.length + failed.length + dead.length === 0) return [];
        return [{ type: 'SyncBatchSettled', data: { node_id: command.nodeId, completed, failed, dead, settled_at: at } }];
      }
      case 'releaseBatch': {
        const released = [...new Set(command.attempted)].filter((id) => state.items.get(id)?.status === 'in_progress');
        return released.length === 0 ? [] : [{ type: 'SyncBatchReleased', data: { node_id: command.nodeId, item_ids: released, error: command.error, released_at: at } }];
      }
      default:
        return assertNever(command);
    }
  },
};
