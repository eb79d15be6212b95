/**
 * One revenue entry (stream `revenueEntry-<entryId>`): money that came in on
 * one of the three streams of SPEC §2.3, in integer cents. The entry id is the
 * idempotency key. Until /v1 metering exists, admins record entries through
 * POST /api/revenue/records.
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';

export const REVENUE_STREAMS = ['api', 'ad', 'hosting_payout'] as const;
export type RevenueStream = (typeof REVENUE_STREAMS)[number];

export type RevenueEntryEvent = {
  type: 'RevenueRecorded';
  data: { entry_id: string; stream: RevenueStream; amount_cents: number; occurred_at: string; recorded_at: string };
};

export interface RevenueEntryState {
  recorded: boolean;
}

export type RevenueEntryCommand = {
  kind: 'record';
  entryId: string;
  stream: RevenueStream;
  amountCents: number;
  /** ISO 8601; defaults to now */
  occurredAt: string | null;
};

export function revenueEntryStreamId(entryId: string): string {
  return `revenueEntry-${entryId}`;
}

export const revenueEntryDecider: Decider<RevenueEntryState, RevenueEntryCommand, RevenueEntryEvent> = {
  initialState: { recorded: false },
  evolve(_state, event) {
    switch (event.type) {
      case 'RevenueRecorded':
        return { recorded: true };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    if (state.recorded) return [];
    if (!REVENUE_STREAMS.includes(command.stream)) throw new DomainError('invalid', `stream must be one of ${REVENUE_STREAMS.join(', ')}`);
    if (!Number.isSafeInteger(command.amountCents) || command.amountCents <= 0) {
      throw new DomainError('invalid', 'amount_cents must be a positive integer');
    }
    let occurredAt = now.toISOString();
    if (command.occurredAt !== null) {
      const time = Date.parse(command.occurredAt);
      if (Number.isNaN(time)) throw new DomainError('invalid', 'occurred_at must be an ISO 8601 timestamp');
      if (time > now.getTime() + 60_000) throw new DomainError('invalid', 'occurred_at must not be in the future');
      occurredAt = new Date(time).toISOString();
    }
    return [
      {
        type: 'RevenueRecorded',
        data: { entry_id: command.entryId, stream: command.stream, amount_cents: command.amountCents, occurred_at: occurredAt, recorded_at: now.toISOString() },
      },
    ];
  },
};
