/**
 * Command handlers of the compute context: each calls the CommandExecutor on
 * the stream that decides and replies from the outcome. The node id and tier
 * are this node's (configuration).
 */
import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CENTRAL_METERED_REFUSED, isPeerField, isPolicyField, pickFields } from '../../aggregates/compute/compute-fields';
import { apiUsageDecider, apiUsageStreamId } from '../../aggregates/compute/api-usage';
import { computeReportDecider, computeReportStreamId } from '../../aggregates/compute/compute-report';
import { nodeComputeDecider, nodeComputeStreamId } from '../../aggregates/compute/node-compute';
import { peerNodeDecider, peerNodeStreamId } from '../../aggregates/compute/peer-node';
import { revenueEntryDecider, revenueEntryStreamId } from '../../aggregates/compute/revenue-entry';
import { settlementDecider, settlementStreamId } from '../../aggregates/compute/settlement';
import { DomainError } from '../../aggregates/shared/domain-error';
import { COMPUTE_OVERRIDES, type ComputeOverrides } from '../../config/compute.config';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { CommandExecutor } from '../common/command-executor';
import { RawBodyError } from '../common/raw-body-error';
import {
  CompleteSettlement,
  JoinComputeProvider,
  MeterApiUsage,
  type ProviderJoinReceipt,
  RecordComputeServed,
  RecordRevenue,
  RequestSettlement,
  UpdateComputeSettings,
  type UpdateResult,
} from './compute.commands';
import { mergeComputeSettings } from './compute-view';

/** SPEC §7: this refusal has the exact body `{error: ...}`, not the usual envelope. */
function rawCentralRefusal(error: unknown): never {
  if (error instanceof DomainError && error.message === CENTRAL_METERED_REFUSED) {
    throw new RawBodyError(403, { error: CENTRAL_METERED_REFUSED });
  }
  throw error;
}

/**
 * PUT /api/settings/compute: policy fields go to `nodeCompute-<nodeId>`, peer
 * fields to `peerNode-<nodeId>` (SPEC §2.4). Both are validated before
 * anything is written (the DTO and then each decider); the policy stream is
 * written first because only it can refuse (central tier).
 */
@CommandHandler(UpdateComputeSettings)
export class UpdateComputeSettingsHandler implements ICommandHandler<UpdateComputeSettings> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ payload, context }: UpdateComputeSettings): Promise<UpdateResult> {
    const { nodeId, nodeTier } = this.config;
    const policy = pickFields(payload.changes, isPolicyField);
    const peer = pickFields(payload.changes, isPeerField);
    if (Object.keys(policy).length > 0) {
      await this.executor
        .execute(nodeComputeDecider, nodeComputeStreamId(nodeId), { kind: 'update', nodeId, nodeTier, changes: policy }, context)
        .catch(rawCentralRefusal);
    }
    if (Object.keys(peer).length > 0) {
      await this.executor.execute(peerNodeDecider, peerNodeStreamId(nodeId), { kind: 'update', nodeId, nodeTier, changes: peer }, context);
    }
    const policyFields = Object.keys(policy);
    const peerFields = Object.keys(peer);
    return { updated: policyFields.length + peerFields.length > 0, node_id: nodeId, policy_fields: policyFields, peer_fields: peerFields };
  }
}

/** SPEC §4.3 join defaults; the other join fields are recorded only when given. */
export const JOIN_DEFAULTS = { cause_alignment: 'democratize_compute', compute_policy: 'local_preferred', accept_thought_experiments: true };

/**
 * POST /api/settings/compute/provider/join: any node may join; the first
 * join records the peer fields and the join on `peerNode-<nodeId>` (later
 * joins change nothing there). Only an operator's or admin's join sets the
 * node's compute policy on `nodeCompute-<nodeId>` (the join defaults on the
 * first such join, then what it gives); policy fields from anyone else are
 * ignored and named in `ignored_fields`. The reply is the settings in effect
 * after the join, from both streams.
 */
@CommandHandler(JoinComputeProvider)
export class JoinComputeProviderHandler implements ICommandHandler<JoinComputeProvider> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(COMPUTE_OVERRIDES) private readonly overrides: ComputeOverrides,
  ) {}

  async execute({ payload, context }: JoinComputeProvider): Promise<ProviderJoinReceipt> {
    const { nodeId, nodeTier } = this.config;
    const given = Object.fromEntries(Object.entries(payload.changes).filter(([, value]) => value !== undefined));
    const withDefaults = { ...JOIN_DEFAULTS, ...given };
    const peer = pickFields(withDefaults, isPeerField);
    const joined = await this.executor.execute(peerNodeDecider, peerNodeStreamId(nodeId), { kind: 'join', nodeId, nodeTier, changes: peer }, context);
    const policyStream = nodeComputeStreamId(nodeId);
    const stored = await this.executor.load(nodeComputeDecider, policyStream);
    const policy = pickFields(Object.keys(stored.state.stored).length === 0 ? withDefaults : given, isPolicyField);
    const { state: policyState } =
      payload.setsPolicy && Object.keys(policy).length > 0
        ? await this.executor.execute(nodeComputeDecider, policyStream, { kind: 'update', nodeId, nodeTier, changes: policy }, context)
        : stored;
    const { values } = mergeComputeSettings(this.overrides, { policy: policyState.stored, peer: joined.state.record }, nodeTier);
    const ignored = payload.setsPolicy ? [] : Object.keys(given).filter(isPolicyField);
    return { joined: true, node_id: nodeId, config: values, ...(ignored.length > 0 ? { ignored_fields: ignored } : {}) };
  }
}

@CommandHandler(RecordComputeServed)
export class RecordComputeServedHandler implements ICommandHandler<RecordComputeServed> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ payload, context }: RecordComputeServed): Promise<{ recorded: boolean; report_id: string }> {
    const outcome = await this.executor.execute(
      computeReportDecider,
      computeReportStreamId(payload.reportId),
      { kind: 'record', ...payload, nodeId: this.config.nodeId },
      context,
    );
    return { recorded: outcome.events.length > 0, report_id: payload.reportId };
  }
}

@CommandHandler(RequestSettlement)
export class RequestSettlementHandler implements ICommandHandler<RequestSettlement> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ payload, context }: RequestSettlement): Promise<{ settlement_id: string; amount_usd: number; status: 'pending' }> {
    const settlementId = randomUUID();
    await this.executor.execute(
      settlementDecider,
      settlementStreamId(settlementId),
      { kind: 'request', ...payload, settlementId, nodeId: this.config.nodeId },
      context,
    );
    return { settlement_id: settlementId, amount_usd: payload.amountCents / 100, status: 'pending' };
  }
}

@CommandHandler(CompleteSettlement)
export class CompleteSettlementHandler implements ICommandHandler<CompleteSettlement> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: CompleteSettlement): Promise<{ settlement_id: string; status: 'completed' }> {
    await this.executor.execute(settlementDecider, settlementStreamId(payload.settlementId), { kind: 'complete' }, context);
    return { settlement_id: payload.settlementId, status: 'completed' };
  }
}

@CommandHandler(RecordRevenue)
export class RecordRevenueHandler implements ICommandHandler<RecordRevenue> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: RecordRevenue): Promise<{ recorded: boolean; entry_id: string }> {
    const outcome = await this.executor.execute(revenueEntryDecider, revenueEntryStreamId(payload.entryId), { kind: 'record', ...payload }, context);
    return { recorded: outcome.events.length > 0, entry_id: payload.entryId };
  }
}

/**
 * One /v1 call's usage on a stream of its own (the usage id is new, so no
 * read of the stream). Nothing reads revenue right after a call, so the
 * command does not wait for the read model (read-your-writes off): the event
 * is durable when this returns.
 */
@CommandHandler(MeterApiUsage)
export class MeterApiUsageHandler implements ICommandHandler<MeterApiUsage> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: MeterApiUsage): Promise<{ metered: boolean; amount_cents: number }> {
    const outcome = await this.executor.execute(apiUsageDecider, apiUsageStreamId(payload.usageId), { kind: 'meter', ...payload }, context, {
      newStream: true,
      readYourWrites: false,
    });
    const event = outcome.events[0];
    return { metered: event !== undefined, amount_cents: event?.data.amount_cents ?? 0 };
  }
}

export const COMPUTE_COMMAND_HANDLERS = [
  UpdateComputeSettingsHandler,
  JoinComputeProviderHandler,
  RecordComputeServedHandler,
  RequestSettlementHandler,
  CompleteSettlementHandler,
  RecordRevenueHandler,
  MeterApiUsageHandler,
];
