/**
 * The §20 routes beyond identity and challenges (social-routes §20):
 * impression witnessing (node-to-node, the requester's signature checked
 * against its registered key), peer stats, the guardrail hash, the registry
 * routes (INTEGRITY_REGISTRY only), alerts and audits (admins: the original
 * leaves them unguarded, here they are guarded), coverage, dashboard and
 * boot status. Raw replies where §20 says raw.
 */
import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, type PagedEnvelope, ok, paged } from '../common/envelope';
import { PathParam, QueryParam, ReadBody, Refusal, Reply } from '../common/openapi';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { SelfSignedRegistrationGuard } from '../federation/self-signed.guard';
import { type AlertRecord, AuditNode, type AuditOutcome, RegisterRegistryNode, ReviewIntegrityAlert } from './integrity.commands';
import { UNKNOWN_NODE } from './integrity-oversight.handlers';
import { IntegrityOversightQueries, type PeerStats } from './integrity-oversight.queries';
import {
  ALERT_REPLY,
  ALERTS_PAGE_REPLY,
  AUDIT_COVERAGE,
  AUDIT_OUTCOME,
  BOOT_STATUS,
  DASHBOARD,
  EXPECTED_HASH,
  GUARDRAIL_HASH,
  PEER_STATS,
  REGISTER_NODE_RESULT,
  TRUSTED_KEYS,
  WITNESS_REPLY,
} from './integrity-oversight.replies';
import {
  ALERT_ID,
  ALERT_PATCH_SCHEMA,
  ALERT_QUERY_SCHEMAS,
  alertPatch,
  alertsQuery,
  peerStatsNodeId,
  REGISTER_NODE_SCHEMA,
  registerNodeRequest,
  versionQuery,
  WITNESS_BODY_SCHEMA,
  witnessRequest,
} from './integrity-oversight.requests';
import { IntegrityQueries } from './integrity.queries';
import { NODE_ID } from './integrity.requests';
import { NOT_A_REGISTRY, RegistryOnlyGuard } from './registry-only.guard';
import { ImpressionWitness, type WitnessReply } from './witness.service';

@Controller(socialPaths('integrity'))
export class IntegrityOversightController {
  constructor(
    private readonly oversight: IntegrityOversightQueries,
    private readonly identity: IntegrityQueries,
    private readonly witnesses: ImpressionWitness,
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A peer asks this node to co-sign an ad impression; refusals are `{witnessed: false, reason}`, not errors. */
  @Post('witness-impression')
  @HttpCode(200)
  @ReadBody(WITNESS_BODY_SCHEMA)
  @Reply(200, WITNESS_REPLY, 'a co-signature, or `{witnessed: false, reason}` for a banned or unknown requester, a timestamp older than 60 s, a missing or invalid signature, a nonce already witnessed')
  @Refusal(400, 'a missing or malformed node_id, timestamp, impression_id, ad_id or nonce')
  witness(@Body() body: unknown): Promise<WitnessReply> {
    return this.witnesses.witness(witnessRequest(body));
  }

  @Get('peer-stats')
  @Reply(200, PEER_STATS)
  @QueryParam('node_id', { type: 'string', pattern: NODE_ID.source })
  @Refusal(400, 'node_id missing or malformed')
  @Refusal(404, '`Unknown node`')
  async peerStats(@Query() query: Record<string, unknown>): Promise<PeerStats> {
    const stats = await this.oversight.peerStats(peerStatsNodeId(query));
    if (!stats) throw new DomainError('not_found', UNKNOWN_NODE);
    return stats;
  }

  @Get('guardrail-hash')
  @Reply(200, GUARDRAIL_HASH, 'the SHA-256 of the chat guardrail policy as booted and as it is now')
  guardrailHash() {
    return this.oversight.guardrailHash();
  }

  @Get('expected-hash')
  @UseGuards(RegistryOnlyGuard)
  @Reply(200, EXPECTED_HASH, 'the code hash this registry expects for `version` (default: its own); null when it knows none')
  @QueryParam('version', { type: 'string', pattern: '^[A-Za-z0-9_.+-]{1,64}$' })
  @Refusal(403, `\`${NOT_A_REGISTRY}\``)
  async expectedHash(@Query() query: Record<string, unknown>): Promise<{ version: string; code_hash: string | null }> {
    const version = versionQuery(query, this.config.version);
    return { version, code_hash: await this.identity.expectedHash(version) };
  }

  /** A node registers with this registry: signed (x-node-* headers) by the key it registers, as node_id. */
  @Post('register-node')
  @HttpCode(200)
  @UseGuards(RegistryOnlyGuard, SelfSignedRegistrationGuard)
  @ReadBody(REGISTER_NODE_SCHEMA)
  @Reply(200, REGISTER_NODE_RESULT)
  @Refusal(400, 'node_id or public_key missing or malformed, or a malformed code_hash or version')
  @Refusal(401, 'not signed by public_key as node_id')
  @Refusal(403, `\`${NOT_A_REGISTRY}\`, or \`Code hash mismatch\` under soft or hard enforcement`)
  @Refusal(409, '`Node is registered with another key`')
  async registerNode(@Body() body: unknown, @RequestContext() context: CommandContext) {
    const request = registerNodeRequest(body);
    const result = await this.commands.execute(new RegisterRegistryNode(request, { ...context, actor: `node:${request.nodeId}` }));
    return { success: true as const, ...result };
  }

  @Get('trusted-keys')
  @UseGuards(RegistryOnlyGuard)
  @Reply(200, TRUSTED_KEYS, 'the keys of the nodes registered here, banned ones left out')
  @Refusal(403, `\`${NOT_A_REGISTRY}\``)
  async trustedKeys(): Promise<{ keys: Record<string, string> }> {
    return { keys: await this.oversight.trustedKeys() };
  }

  @Get('alerts')
  @Authenticated('admin')
  @Reply(200, ALERTS_PAGE_REPLY)
  @QueryParam('node_id', ALERT_QUERY_SCHEMAS.node_id)
  @QueryParam('status', ALERT_QUERY_SCHEMAS.status)
  @QueryParam('severity', ALERT_QUERY_SCHEMAS.severity)
  @QueryParam('limit', ALERT_QUERY_SCHEMAS.limit)
  @QueryParam('offset', ALERT_QUERY_SCHEMAS.offset)
  @Refusal(400, 'a malformed filter, limit or offset')
  async alerts(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<AlertRecord>> {
    const { filter, page } = alertsQuery(query);
    const { items, total } = await this.oversight.alerts(filter, page);
    return paged(items, total, page);
  }

  @Patch('alerts/:id')
  @Authenticated('admin')
  @PathParam('id', { type: 'string', pattern: ALERT_ID.source })
  @ReadBody(ALERT_PATCH_SCHEMA)
  @Reply(200, ALERT_REPLY)
  @Refusal(400, 'an unknown status')
  @Refusal(404, '`Alert not found`')
  async reviewAlert(@Param('id') id: string, @Body() body: unknown, @CurrentUser() admin: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<AlertRecord>> {
    if (!ALERT_ID.test(id)) throw new DomainError('not_found', 'Alert not found');
    const { status } = alertPatch(body);
    return ok(await this.commands.execute(new ReviewIntegrityAlert({ alertId: id, status, by: admin.id }, context)));
  }

  /** One audit round: the score decays by 2, each new finding raises an alert, 80 bans. */
  @Post('node/:id/audit')
  @HttpCode(200)
  @Authenticated('admin')
  @PathParam('id', { type: 'string', pattern: NODE_ID.source })
  @Reply(200, AUDIT_OUTCOME)
  @Refusal(400, 'a node id that is not 1-128 letters, digits or _ . : -')
  @Refusal(404, '`Unknown node`: this node has no record of it')
  async audit(@Param('id') id: string, @CurrentUser() admin: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<AuditOutcome>> {
    if (!NODE_ID.test(id)) throw new DomainError('invalid', 'node id must be 1-128 letters, digits or _ . : -');
    return ok(await this.commands.execute(new AuditNode({ nodeId: id, by: admin.id }, context)));
  }

  @Get('audit-coverage')
  @Reply(200, AUDIT_COVERAGE)
  async auditCoverage() {
    return ok(await this.oversight.auditCoverage());
  }

  @Get('dashboard')
  @Reply(200, DASHBOARD)
  async dashboard() {
    return ok(await this.oversight.dashboard());
  }

  @Get('boot-status')
  @Reply(200, BOOT_STATUS)
  bootStatus() {
    return this.oversight.bootStatus();
  }
}
