/**
 * A settlement of a provider's earnings (stream `settlement-<settlementId>`):
 * requested by the node's operator, completed by an admin. Amounts are
 * integer cents.
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';

export type SettlementEvent =
  | { type: 'SettlementRequested'; data: { settlement_id: string; node_id: string; amount_cents: number; requested_at: string } }
  | { type: 'SettlementCompleted'; data: { settlement_id: string; node_id: string; amount_cents: number; completed_at: string } };

/** Not requested yet, or requested (pending, then completed) for an amount. */
export type SettlementState =
  | { status: 'none' }
  | { status: 'pending' | 'completed'; settlementId: string; nodeId: string; amountCents: number };

export type SettlementCommand =
  | { kind: 'request'; settlementId: string; nodeId: string; amountCents: number }
  | { kind: 'complete' };

export function settlementStreamId(settlementId: string): string {
  return `settlement-${settlementId}`;
}

export const settlementDecider: Decider<SettlementState, SettlementCommand, SettlementEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'SettlementRequested':
        return { settlementId: event.data.settlement_id, nodeId: event.data.node_id, amountCents: event.data.amount_cents, status: 'pending' };
      case 'SettlementCompleted':
        return state.status === 'none' ? state : { ...state, status: 'completed' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'request':
        if (state.status !== 'none') throw new DomainError('conflict', 'settlement already requested');
        if (!Number.isSafeInteger(command.amountCents) || command.amountCents <= 0) {
          throw new DomainError('invalid', 'amount must be a positive amount of cents');
        }
        return [
          {
            type: 'SettlementRequested',
            data: { settlement_id: command.settlementId, node_id: command.nodeId, amount_cents: command.amountCents, requested_at: now.toISOString() },
          },
        ];
      case 'complete':
        switch (state.status) {
          case 'none':
            throw new DomainError('not_found', 'settlement not found');
          case 'completed':
            return [];
          case 'pending':
            return [
              {
                type: 'SettlementCompleted',
                data: { settlement_id: state.settlementId, node_id: state.nodeId, amount_cents: state.amountCents, completed_at: now.toISOString() },
              },
            ];
          default:
            return assertNever(state);
        }
      default:
        return assertNever(command);
    }
  },
};
