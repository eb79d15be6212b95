/** Command handlers of the compute context: each one calls the CommandExecutor on one stream. */
import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { computeReportDecider, computeReportStreamId } from '../../aggregates/compute/compute-report';
import { settlementDecider, settlementStreamId } from '../../aggregates/compute/settlement';
import { CENTRAL_METERED_REFUSED, isPeerField, isPolicyField, pickFields } from '../../aggregates/compute/compute-fields';
import { nodeComputeDecider, nodeComputeStreamId } from '../../aggregates/compute/node-compute';
import { peerNodeDecider, peerNodeStreamId } from '../../aggregates/compute/peer-node';
import { DomainError } from '../../aggregates/shared/domain-error';
import { revenueEntryDecider, revenueEntryStreamId } from '../../aggregates/compute/revenue-entry';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { CommandExecutor } from '../common/command-executor';
import { RawBodyError } from '../common/raw-body-error';
import {
  CompleteSettlement,
  JoinComputeProvider,
  RecordComputeServed,
  RecordRevenue,
  RequestSettlement,
  UpdateComputeSettings,
  type UpdateResult,
} from './commands';

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

  async execute({ changes, context }: UpdateComputeSettings): Promise<UpdateResult> {
    const nodeId = this.config.nodeId;
    const nodeTier = this.config.nodeTier;
    const policy = pickFields(changes, isPolicyField);
    const peer = pickFields(changes, isPeerField);
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
 * POST /api/settings/compute/provider/join: the first join records the peer
 * fields and the join on `peerNode-<nodeId>`, then the policy fields on
 * `nodeCompute-<nodeId>`. Later joins change nothing (the route is open).
 */
@CommandHandler(JoinComputeProvider)
export class JoinComputeProviderHandler implements ICommandHandler<JoinComputeProvider> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ fields, context }: JoinComputeProvider): Promise<{ joined: boolean; first_join: boolean }> {
    const nodeId = this.config.nodeId;
    const nodeTier = this.config.nodeTier;
    const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    const withDefaults = { ...JOIN_DEFAULTS, ...given };
    const peer = pickFields(withDefaults, isPeerField);
    const policy = pickFields(withDefaults, isPolicyField);
    const outcome = await this.executor.execute(peerNodeDecider, peerNodeStreamId(nodeId), { kind: 'join', nodeId, nodeTier, changes: peer }, context);
    const firstJoin = outcome.events.some((e) => e.type === 'ComputeProviderJoined');
    if (firstJoin) {
      await this.executor.execute(nodeComputeDecider, nodeComputeStreamId(nodeId), { kind: 'update', nodeId, nodeTier, changes: policy }, context);
    }
    return { joined: true, first_join: firstJoin };
  }
}

@CommandHandler(RecordComputeServed)
export class RecordComputeServedHandler implements ICommandHandler<RecordComputeServed> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ reportId, report, context }: RecordComputeServed): Promise<{ recorded: boolean; report_id: string }> {
    const outcome = await this.executor.execute(
      computeReportDecider,
      computeReportStreamId(reportId),
      { kind: 'record', reportId, nodeId: this.config.nodeId, ...report },
      context,
    );
    return { recorded: outcome.events.length > 0, report_id: reportId };
  }
}

@CommandHandler(RequestSettlement)
export class RequestSettlementHandler implements ICommandHandler<RequestSettlement> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ amountCents, context }: RequestSettlement): Promise<{ settlement_id: string; amount_usd: number; status: 'pending' }> {
    const settlementId = randomUUID();
    await this.executor.execute(
      settlementDecider,
      settlementStreamId(settlementId),
      { kind: 'request', settlementId, nodeId: this.config.nodeId, amountCents },
      context,
    );
    return { settlement_id: settlementId, amount_usd: amountCents / 100, status: 'pending' };
  }
}

@CommandHandler(CompleteSettlement)
export class CompleteSettlementHandler implements ICommandHandler<CompleteSettlement> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ settlementId, context }: CompleteSettlement): Promise<{ settlement_id: string; status: 'completed' }> {
    await this.executor.execute(settlementDecider, settlementStreamId(settlementId), { kind: 'complete' }, context);
    return { settlement_id: settlementId, status: 'completed' };
  }
}

@CommandHandler(RecordRevenue)
export class RecordRevenueHandler implements ICommandHandler<RecordRevenue> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ entryId, stream, amountCents, occurredAt, context }: RecordRevenue): Promise<{ recorded: boolean; entry_id: string }> {
    const outcome = await this.executor.execute(
      revenueEntryDecider,
      revenueEntryStreamId(entryId),
      { kind: 'record', entryId, stream, amountCents, occurredAt },
      context,
    );
    return { recorded: outcome.events.length > 0, entry_id: entryId };
  }
}
