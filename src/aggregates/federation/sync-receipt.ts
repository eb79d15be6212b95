/**
 * The receiving side of POST /hierarchy/sync (social-routes §19): one stream
 * per item a child node sent, `syncReceipt-<senderNodeId>:<itemId>`, so an
 * item is applied at most once here however often it is sent.
 *
 * The handler applies the item's effect first (itself idempotent: a synced
 * post lands under an id derived from its origin) and then records the
 * outcome with `receive`: applied (or only recorded, for the operation types
 * whose effect this node does not run, and unknown ones) → `SyncItemReceived`,
 * the item is completed; refused (a payload that cannot be applied) →
 * `SyncItemRejected` with the attempt count, and dead at the max_retries-th
 * refusal. An item completed or dead here is reported processed again
 * without re-running (`isSettled`); a refused one may be sent again.
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever } from '../shared/domain-error';
import { SYNC_MAX_RETRIES } from './sync-queue';

export type SyncReceiptOutcome = 'applied' | 'recorded' | 'unknown_type';

export type SyncItemReceived = DomainEvent<
  'SyncItemReceived',
  { sender_node_id: string; item_id: string; operation_type: string; outcome: SyncReceiptOutcome; received_at: string }
>;
export type SyncItemRejected = DomainEvent<
  'SyncItemRejected',
  { sender_node_id: string; item_id: string; operation_type: string; error: string; attempts: number; dead: boolean; rejected_at: string }
>;
export type SyncReceiptEvent = SyncItemReceived | SyncItemRejected;

export const syncReceiptStreamId = (senderNodeId: string, itemId: string): string => `syncReceipt-${senderNodeId}:${itemId}`;

export type SyncReceiptState = { status: 'new' | 'failed'; attempts: number } | { status: 'completed' | 'dead'; attempts: number };

export type SyncReceiptCommand = {
  kind: 'receive';
  senderNodeId: string;
  itemId: string;
  operationType: string;
  outcome: { ok: true; outcome: SyncReceiptOutcome } | { ok: false; error: string };
};

/** Whether the item was settled here (completed or dead): reported processed without running again. */
export const isSettled = (state: SyncReceiptState): boolean => state.status === 'completed' || state.status === 'dead';

export const syncReceiptDecider: Decider<SyncReceiptState, SyncReceiptCommand, SyncReceiptEvent> = {
  initialState: { status: 'new', attempts: 0 },
  evolve(state, event) {
    switch (event.type) {
      case 'SyncItemReceived':
        return { status: 'completed', attempts: state.attempts + 1 };
      case 'SyncItemRejected':
        return { status: event.data.dead ? 'dead' : 'failed', attempts: event.data.attempts };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'receive': {
        if (isSettled(state)) return [];
        const at = now.toISOString();
        const base = { sender_node_id: command.senderNodeId, item_id: command.itemId, operation_type: command.operationType };
        if (command.outcome.ok) return [{ type: 'SyncItemReceived', data: { ...base, outcome: command.outcome.outcome, received_at: at } }];
        const attempts = state.attempts + 1;
        return [{ type: 'SyncItemRejected', data: { ...base, error: command.outcome.error, attempts, dead: attempts >= SYNC_MAX_RETRIES, rejected_at: at } }];
      }
      default:
        return assertNever(command.kind);
    }
  },
};
