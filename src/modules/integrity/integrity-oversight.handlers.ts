/**
 * Handlers of the integrity oversight commands: audit rounds and alert
 * reviews (aggregates/integrity/node-standing.ts), registry registrations
 * (aggregates/integrity/registry-node.ts). The audit's findings are read
 * from this node's records of the node (audit-findings.ts); the decider
 * applies §20's decay, deltas and ban.
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { nodeStandingDecider, nodeStandingStreamId } from '../../aggregates/integrity/node-standing';
import { registryNodeDecider, registryNodeStreamId } from '../../aggregates/integrity/registry-node';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { type CommandContext, CommandExecutor } from '../common/command-executor';
import { randomHex } from '../common/random-ids';
import { type AuditRecords, auditFindings } from './audit-findings';
import { ChallengeRounds } from './challenge-rounds';
import { type AlertRecord, AuditNode, type AuditOutcome, RegisterRegistryNode, ReviewIntegrityAlert } from './integrity.commands';
import { IntegrityOversightQueries } from './integrity-oversight.queries';
import { IntegrityQueries } from './integrity.queries';

export const UNKNOWN_NODE = 'Unknown node';

@CommandHandler(AuditNode)
export class AuditNodeHandler implements ICommandHandler<AuditNode> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly oversight: IntegrityOversightQueries,
    private readonly identity: IntegrityQueries,
    private readonly rounds: ChallengeRounds,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ payload, context }: AuditNode): Promise<AuditOutcome> {
    if (!(await this.oversight.isKnownNode(payload.nodeId))) throw new DomainError('not_found', UNKNOWN_NODE);
    const reported = await this.probe(payload.nodeId, payload.by, context);
    const findings = auditFindings({ ...(await this.oversight.auditRecords(payload.nodeId)), reported }, this.clock.now());
    const { events, state } = await this.executor.execute(
      nodeStandingDecider,
      nodeStandingStreamId(payload.nodeId),
      { kind: 'audit', nodeId: payload.nodeId, by: payload.by, findings, alertIds: findings.map(() => randomHex(12)) },
      context,
    );
    const audited = events.find((e) => e.type === 'NodeAudited');
    if (!audited || audited.type !== 'NodeAudited') throw new Error('expected NodeAudited');
    const raised = events.flatMap((e) => (e.type === 'IntegrityAlertRaised' ? [e.data.alert_id] : []));
    return {
      node_id: payload.nodeId,
      fraud_score: state.fraudScore,
      fraud_score_before: audited.data.fraud_score_before,
      decay: audited.data.decay,
      banned: state.banned,
      alerts: await this.oversight.alertsOf(raised),
      audited_at: audited.data.audited_at,
    };
  }

  /** The round's code_hash_check, sent when the node's URL is known; what a verified answer reports, with the hash expected for its version. */
  private async probe(nodeId: string, by: string, context: CommandContext): Promise<AuditRecords['reported']> {
    if (nodeId === this.config.nodeId || (await this.oversight.nodeUrl(nodeId)) === null) return null;
    const { record, response } = await this.rounds.challenge({ targetNodeId: nodeId, challengeType: 'code_hash_check', issuedBy: by }, context);
    if (record.status !== 'passed' || typeof response?.code_hash !== 'string' || typeof response.version !== 'string') return null;
    return { code_hash: response.code_hash, version: response.version, expected_hash: await this.identity.expectedHash(response.version) };
  }
}

@CommandHandler(ReviewIntegrityAlert)
export class ReviewIntegrityAlertHandler implements ICommandHandler<ReviewIntegrityAlert> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly oversight: IntegrityOversightQueries,
  ) {}

  async execute({ payload, context }: ReviewIntegrityAlert): Promise<AlertRecord> {
    // the read model only says which stream holds the alert; the stream decides whether it exists
    const found = await this.oversight.alert(payload.alertId);
    if (!found) throw new DomainError('not_found', 'Alert not found');
    await this.executor.execute(
      nodeStandingDecider,
      nodeStandingStreamId(found.node_id),
      { kind: 'review', nodeId: found.node_id, alertId: payload.alertId, status: payload.status, by: payload.by },
      context,
    );
    return (await this.oversight.alert(payload.alertId)) ?? found;
  }
}

@CommandHandler(RegisterRegistryNode)
export class RegisterRegistryNodeHandler implements ICommandHandler<RegisterRegistryNode> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly identity: IntegrityQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ payload, context }: RegisterRegistryNode): Promise<{ registered: boolean; code_hash_matches: boolean | null }> {
    const expectedHash = payload.version ? await this.identity.expectedHash(payload.version) : null;
    const { state, events } = await this.executor.execute(
      registryNodeDecider,
      registryNodeStreamId(payload.nodeId),
      { kind: 'register', ...payload, expectedHash, enforcement: this.config.integrity.enforcement },
      context,
    );
    const matches = events[0]?.data.code_hash_matches ?? (expectedHash === null || payload.codeHash === null ? null : expectedHash === payload.codeHash);
    return { registered: state.status === 'registered', code_hash_matches: matches };
  }
}
