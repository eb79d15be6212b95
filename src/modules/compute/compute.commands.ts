/**
 * Commands of the compute context, dispatched on the @nestjs/cqrs CommandBus.
 * Payloads are the decider commands' fields without the node id and tier:
 * those are this node's (configuration), never the caller's.
 */
import type { ApiUsageCommand } from '../../aggregates/compute/api-usage';
import type { ComputeSettings } from '../../aggregates/compute/compute-fields';
import type { ComputeReportCommand } from '../../aggregates/compute/compute-report';
import type { NodeComputeCommand } from '../../aggregates/compute/node-compute';
import type { PeerNodeCommand } from '../../aggregates/compute/peer-node';
import type { RevenueEntryCommand } from '../../aggregates/compute/revenue-entry';
import type { SettlementCommand } from '../../aggregates/compute/settlement';
import type { CommandInput } from '../../aggregates/shared/decider';
import { DomainCommand } from '../common/domain-command';

export interface UpdateResult {
  updated: boolean;
  node_id: string;
  policy_fields: string[];
  peer_fields: string[];
}

/** PUT of any compute fields: the handler routes each to the node compute config or the peer node record. */
export class UpdateComputeSettings extends DomainCommand<Pick<CommandInput<NodeComputeCommand, 'update'>, 'changes'>, UpdateResult> {}

export interface ProviderJoinReceipt {
  joined: true;
  node_id: string;
  /** the effective settings after the join (environment > stored > default) */
  config: ComputeSettings;
  /** policy fields the join was given but may not set (the caller is not an operator or admin) */
  ignored_fields?: string[];
}

/** `setsPolicy`: the caller is an operator or admin, whose join also sets the node's compute policy. */
export class JoinComputeProvider extends DomainCommand<
  Pick<CommandInput<PeerNodeCommand, 'join'>, 'changes'> & { setsPolicy: boolean },
  ProviderJoinReceipt
> {}

export class RecordComputeServed extends DomainCommand<Omit<CommandInput<ComputeReportCommand, 'record'>, 'nodeId'>, { recorded: boolean; report_id: string }> {}

/** The settlement id is new: the handler names it. */
export class RequestSettlement extends DomainCommand<
  Pick<CommandInput<SettlementCommand, 'request'>, 'amountCents'>,
  { settlement_id: string; amount_usd: number; status: 'pending' }
> {}

export class CompleteSettlement extends DomainCommand<
  { settlementId: string } & CommandInput<SettlementCommand, 'complete'>,
  { settlement_id: string; status: 'completed' }
> {}

export class RecordRevenue extends DomainCommand<CommandInput<RevenueEntryCommand, 'record'>, { recorded: boolean; entry_id: string }> {}

/** A call of the OpenAI-compatible API, metered at its key's tier (api revenue; $0 on the free tier). */
export class MeterApiUsage extends DomainCommand<CommandInput<ApiUsageCommand, 'meter'>, { metered: boolean; amount_cents: number }> {}
