/**
 * The hierarchy routes (social-routes §18; raw replies). Node-to-node:
 * every request is signed (x-node-* headers) and checked against the
 * sender's registered key; no user credential is involved.
 *
 * - promote, demote, inventory: signed by this node itself or a node of
 *   TRUSTED_NODE_KEYS (the operator's tooling), on a central node only.
 * - register-regional: signed by a node this node already trusts, for
 *   itself, with the key it is trusted with; central only.
 * - register-local: signed by the key it registers (pinned from then on);
 *   central only. assign-region (central only), switch-region and
 *   report-capacity: signed by the node concerned (or the authority).
 * - regions, region health, assignments, tier-info, the upgrade challenge,
 *   update-approved: open reads. verify-upgrade: the master key's
 *   signature over a fresh challenge (403 otherwise).
 */
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, UseGuards, applyDecorators } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { verifySignature } from '../../infrastructure/node-identity/node-key';
import type { CommandContext } from '../common/command-executor';
import { PathParam, QueryParam, ReadBody, Refusal, Reply } from '../common/openapi';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { SelfSignedRegistrationGuard } from '../federation/self-signed.guard';
import { NODE_KEY_DIRECTORY, NodeSignatureGuard, CallingNode } from '../integrity/node-signature.guard';
import type { NodeKeyDirectory } from '../../infrastructure/node-identity/signed-request';
import { AssignRegion, DemoteNode, PromoteNode, RegisterFleetNode, ReportCapacity, UpgradeToCentral } from './fleet.commands';
import { CENTRAL_REQUIRED, CentralTierGuard, FleetCaller, FleetSignedGuard, isHierarchyAuthority } from './fleet.guards';
import { FleetQueries } from './fleet.queries';
import {
  ASSIGNED,
  ASSIGNMENT,
  CAPACITY,
  INVENTORY,
  REGION_HEALTH,
  REGIONS,
  REGISTERED,
  TIER_CHANGE,
  TIER_INFO,
  UPDATE_APPROVED,
  UPGRADE_CHALLENGE,
  UPGRADE_RESULT,
} from './fleet.replies';
import {
  ASSIGN_SCHEMA,
  assignRequest,
  CAPACITY_SCHEMA,
  capacityRequest,
  DEMOTE_SCHEMA,
  demoteRequest,
  NODE_ID,
  PROMOTE_SCHEMA,
  promoteRequest,
  REGISTER_LOCAL_SCHEMA,
  REGISTER_REGIONAL_SCHEMA,
  registerLocalRequest,
  registerRegionalRequest,
  SWITCH_SCHEMA,
  switchRequest,
  VERIFY_UPGRADE_SCHEMA,
  verifyUpgradeRequest,
} from './fleet.requests';
import { UPGRADE_CHALLENGE_TTL_MS, UpgradeChallenges } from './upgrade-challenges';

const SIGNED = 'no valid node signature: headers missing or malformed, timestamp outside the window, unknown node, bad signature, or a replayed nonce';
const NOT_AUTHORITY = 'Not a hierarchy authority';

/** Signed by a node this node trusts, and this node is central. */
const CentralNodeSigned = () =>
  applyDecorators(UseGuards(NodeSignatureGuard, CentralTierGuard), Refusal(401, SIGNED), Refusal(403, `\`Node is banned\`, or \`${CENTRAL_REQUIRED}\` on a node that is not central`));

const nodeIdParam = (id: string): string => {
  if (!NODE_ID.test(id)) throw new DomainError('invalid', 'node id must be 1-128 letters, digits or _ . : -');
  return id;
};

@Controller(socialPaths())
export class HierarchyController {
  constructor(
    private readonly commands: CommandBus,
    private readonly fleet: FleetQueries,
    private readonly challenges: UpgradeChallenges,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(NODE_KEY_DIRECTORY) private readonly keys: NodeKeyDirectory,
  ) {}

  private authority(caller: string): void {
    if (!isHierarchyAuthority(this.config, caller)) throw new DomainError('forbidden', NOT_AUTHORITY);
  }

  @Get('fleet/update-approved')
  @QueryParam('v', { type: 'string', maxLength: 64 })
  @Reply(200, UPDATE_APPROVED, 'every version is approved (as in the original)')
  updateApproved(@Query() query: Record<string, unknown>) {
    const v = typeof query.v === 'string' && query.v.length > 0 && query.v.length <= 64 ? query.v : this.config.version;
    return { approved: true as const, version: v };
  }

  @Post('hierarchy/promote')
  @HttpCode(200)
  @CentralNodeSigned()
  @ReadBody(PROMOTE_SCHEMA)
  @Reply(200, TIER_CHANGE, 'the node is regional and `tier_promote` (restart_required) is queued for it')
  @Refusal(400, 'node_id or region_name missing, or `Node is already regional`')
  @Refusal(404, '`Node not found`')
  async promote(@CallingNode() caller: string, @Body() body: unknown, @RequestContext() context: CommandContext) {
    this.authority(caller);
    const { nodeId, regionName } = promoteRequest(body);
    const command = await this.commands.execute(new PromoteNode({ nodeId, regionName, by: `node:${caller}` }, { ...context, actor: `node:${caller}` }));
    return { success: true as const, message: `Node ${nodeId} promoted to regional (${regionName}); restart required`, command };
  }

  @Post('hierarchy/demote')
  @HttpCode(200)
  @CentralNodeSigned()
  @ReadBody(DEMOTE_SCHEMA)
  @Reply(200, TIER_CHANGE, 'the node is flat, its certificate cleared, and `tier_demote` is queued for it')
  @Refusal(400, 'node_id missing, or `Node is not regional`')
  @Refusal(404, '`Node not found`')
  async demote(@CallingNode() caller: string, @Body() body: unknown, @RequestContext() context: CommandContext) {
    this.authority(caller);
    const { nodeId, reason } = demoteRequest(body);
    const command = await this.commands.execute(new DemoteNode({ nodeId, reason, by: `node:${caller}` }, { ...context, actor: `node:${caller}` }));
    return { success: true as const, message: `Node ${nodeId} demoted to flat`, command };
  }

  @Get('hierarchy/inventory')
  @CentralNodeSigned()
  @Reply(200, INVENTORY, 'the nodes by tier, this one among them; nodes not heard from in a day are left out')
  async inventory(@CallingNode() caller: string) {
    this.authority(caller);
    return this.fleet.inventory();
  }

  @Post('hierarchy/register-regional')
  @HttpCode(200)
  @CentralNodeSigned()
  @ReadBody(REGISTER_REGIONAL_SCHEMA)
  @Reply(200, REGISTERED, 'the regional node and its region (its own id)')
  @Refusal(400, 'a missing or malformed field, or a public_key other than the one the node is trusted with')
  @Refusal(409, '`Node is registered with another key`')
  async registerRegional(@CallingNode() caller: string, @Body() body: unknown, @RequestContext() context: CommandContext) {
    const r = registerRegionalRequest(body);
    if (r.nodeId !== caller) throw new DomainError('forbidden', 'A node registers itself only');
    if ((await this.keys.publicKeyOf(caller)) !== r.publicKey) throw new DomainError('invalid', 'public_key is not the key registered for node_id');
    const registered = await this.commands.execute(new RegisterFleetNode({ ...r, tier: 'regional', geoInfo: {}, by: `node:${caller}` }, { ...context, actor: `node:${caller}` }));
    return { success: true as const, ...registered };
  }

  @Post('hierarchy/register-local')
  @HttpCode(200)
  @UseGuards(SelfSignedRegistrationGuard, CentralTierGuard)
  @ReadBody(REGISTER_LOCAL_SCHEMA)
  @Reply(200, REGISTERED, 'the local node and the region it was put in (null while there is none)')
  @Refusal(400, 'a missing or malformed field')
  @Refusal(401, 'not signed by public_key as node_id')
  @Refusal(403, `\`${CENTRAL_REQUIRED}\``)
  @Refusal(409, '`Node is registered with another key`')
  async registerLocal(@Body() body: unknown, @RequestContext() context: CommandContext) {
    const r = registerLocalRequest(body);
    const registered = await this.commands.execute(
      new RegisterFleetNode({ ...r, tier: 'local', regionName: null, certificate: null, by: `node:${r.nodeId}` }, { ...context, actor: `node:${r.nodeId}` }),
    );
    return { success: true as const, ...registered };
  }

  @Post('hierarchy/assign-region')
  @HttpCode(200)
  @UseGuards(FleetSignedGuard, CentralTierGuard)
  @ReadBody(ASSIGN_SCHEMA)
  @Reply(200, ASSIGNED)
  @Refusal(401, SIGNED)
  @Refusal(403, `\`${CENTRAL_REQUIRED}\`, or a caller that is neither the local node nor an authority`)
  @Refusal(404, '`Node not found`, `No region available`')
  async assignRegion(@FleetCaller() caller: string, @Body() body: unknown, @RequestContext() context: CommandContext) {
    const { nodeId } = assignRequest(body);
    if (caller !== nodeId) this.authority(caller);
    const result = await this.commands.execute(new AssignRegion({ nodeId, regionId: null, reason: 'assignment', by: `node:${caller}` }, { ...context, actor: `node:${caller}` }));
    return { success: true as const, ...result };
  }

  @Post('hierarchy/switch-region')
  @HttpCode(200)
  @UseGuards(FleetSignedGuard)
  @ReadBody(SWITCH_SCHEMA)
  @Reply(200, ASSIGNED)
  @Refusal(401, SIGNED)
  @Refusal(403, 'a caller that is neither the local node nor an authority')
  @Refusal(404, '`Node not found`, `Region not found`')
  async switchRegion(@FleetCaller() caller: string, @Body() body: unknown, @RequestContext() context: CommandContext) {
    const { nodeId, regionId } = switchRequest(body);
    if (caller !== nodeId) this.authority(caller);
    const result = await this.commands.execute(new AssignRegion({ nodeId, regionId, reason: 'switch', by: `node:${caller}` }, { ...context, actor: `node:${caller}` }));
    return { success: true as const, ...result };
  }

  @Get('hierarchy/regions')
  @Reply(200, REGIONS)
  async regions() {
    const data = await this.fleet.regions();
    return { success: true as const, data, count: data.length };
  }

  @Get('hierarchy/region/:id/health')
  @PathParam('id', { type: 'string', pattern: NODE_ID.source })
  @Reply(200, REGION_HEALTH)
  @Refusal(404, '`Region not found`')
  async regionHealth(@Param('id') id: string) {
    const health = NODE_ID.test(id) ? await this.fleet.regionHealth(id) : null;
    if (!health) throw new DomainError('not_found', 'Region not found');
    return health;
  }

  @Get('hierarchy/node/:id/assignment')
  @PathParam('id', { type: 'string', pattern: NODE_ID.source })
  @Reply(200, ASSIGNMENT)
  @Refusal(404, '`No active assignment`')
  async assignment(@Param('id') id: string) {
    const assignment = NODE_ID.test(id) ? await this.fleet.assignment(id) : null;
    if (!assignment) throw new DomainError('not_found', 'No active assignment');
    return assignment;
  }

  @Post('hierarchy/report-capacity')
  @HttpCode(200)
  @UseGuards(FleetSignedGuard)
  @ReadBody(CAPACITY_SCHEMA)
  @Reply(200, CAPACITY)
  @Refusal(401, SIGNED)
  @Refusal(403, 'a node reporting for another')
  @Refusal(404, '`Node not found`: not registered in the hierarchy')
  async reportCapacity(@FleetCaller() caller: string, @Body() body: unknown, @RequestContext() context: CommandContext) {
    const { nodeId, computeInfo } = capacityRequest(body);
    if (nodeId !== caller) throw new DomainError('forbidden', 'A node reports its own capacity only');
    return { success: true as const, ...(await this.commands.execute(new ReportCapacity({ nodeId, computeInfo }, { ...context, actor: `node:${caller}` }))) };
  }

  @Get('hierarchy/tier-info')
  @Reply(200, TIER_INFO)
  async tierInfo() {
    const { tier, upgraded_at } = await this.fleet.effectiveTier();
    return { success: true as const, node_id: this.config.nodeId, tier, configured_tier: this.config.nodeTier, upgraded_at, master_key_configured: this.config.integrity.masterPublicKey !== null };
  }

  @Get('hierarchy/upgrade-challenge')
  @Reply(200, UPGRADE_CHALLENGE, 'a one-time 32-byte nonce (hex), valid 60 s')
  async upgradeChallenge() {
    return { success: true as const, ...(await this.challenges.issue()), expires_in: UPGRADE_CHALLENGE_TTL_MS / 1000 };
  }

  @Post('hierarchy/verify-upgrade')
  @HttpCode(200)
  @ReadBody(VERIFY_UPGRADE_SCHEMA)
  @Reply(200, UPGRADE_RESULT, 'this node is central from now on')
  @Refusal(400, 'challenge, signature or public_key_hex missing or malformed')
  @Refusal(403, '`No master key configured`, `Not the master key`, `Invalid signature`, `Invalid or expired challenge`')
  async verifyUpgrade(@Body() body: unknown, @RequestContext() context: CommandContext) {
    const { challenge, signature, publicKeyHex } = verifyUpgradeRequest(body);
    const master = this.config.integrity.masterPublicKey;
    if (!master) throw new DomainError('forbidden', 'No master key configured');
    if (publicKeyHex !== master) throw new DomainError('forbidden', 'Not the master key');
    if (!verifySignature(master, challenge, signature)) throw new DomainError('forbidden', 'Invalid signature');
    if ((await this.challenges.consume(challenge)) !== 'valid') throw new DomainError('forbidden', 'Invalid or expired challenge');
    const { tier } = await this.fleet.effectiveTier();
    const { upgraded } = await this.commands.execute(new UpgradeToCentral({ currentTier: tier, masterPublicKey: master, challenge }, { ...context, actor: 'system:master-key' }));
    return { success: true as const, node_id: this.config.nodeId, tier: 'central' as const, upgraded };
  }
}
