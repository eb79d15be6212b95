/** Commands of the compute context, dispatched on the @nestjs/cqrs CommandBus. */
import { Command } from '@nestjs/cqrs';
import type { RevenueStream } from '../../aggregates/compute/revenue-entry';
import type { CommandContext } from '../common/command-executor';

export interface UpdateResult {
  updated: boolean;
  node_id: string;
  policy_fields: string[];
  peer_fields: string[];
}

export class UpdateComputeSettings extends Command<UpdateResult> {
  constructor(
    readonly changes: Record<string, unknown>,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class JoinComputeProvider extends Command<{ joined: boolean; first_join: boolean }> {
  constructor(
    readonly fields: Record<string, unknown>,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class RecordComputeServed extends Command<{ recorded: boolean; report_id: string }> {
  constructor(
    readonly reportId: string,
    readonly report: { gpuHours: number; inferences: number; energyKwh: number; meteredApiCostUsd: number },
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class RequestSettlement extends Command<{ settlement_id: string; amount_usd: number; status: 'pending' }> {
  constructor(
    readonly amountCents: number,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class CompleteSettlement extends Command<{ settlement_id: string; status: 'completed' }> {
  constructor(
    readonly settlementId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class RecordRevenue extends Command<{ recorded: boolean; entry_id: string }> {
  constructor(
    readonly entryId: string,
    readonly stream: RevenueStream,
    readonly amountCents: number,
    readonly occurredAt: string | null,
    readonly context: CommandContext,
  ) {
    super();
  }
}
