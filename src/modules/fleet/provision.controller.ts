/**
 * /api/provision (social-routes §18): deploy records and plans, admins only
 * (the original leaves these open). This service never runs a command on
 * another machine: a deploy or an update records the request and its plan
 * (argument arrays, never a shell string built from request text) for an
 * operator or an external runner; a scan scans nothing and says so; a preflight checks
 * what can be checked without running anything and says so.
 */
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { PathParam, ReadBody, Refusal, Reply } from '../common/openapi';
import { RequestContext } from '../common/request-context';
import { DecommissionProvisionedNode, PlanProvisionUpdate, RecordDeploy } from './fleet.commands';
import { FleetQueries } from './fleet.queries';
import { DECOMMISSIONED, DEPLOY_RESULT, PREFLIGHT, PROVISION_NODES, PROVISION_RECORD, SCAN_RESULT } from './fleet.replies';
import { DEPLOY_SCHEMA, deployRequest, PREFLIGHT_SCHEMA, provisionId, SCAN_SCHEMA, scanSubnet } from './fleet.requests';

export const NOT_EXECUTED = 'Recorded and planned; this service runs no commands on other machines: carry the plan out with your own tooling';
export const SCAN_UNSUPPORTED = 'Network scanning is not supported: this service runs no commands on the network. Record known hosts with POST /api/provision/deploy';

@Controller('api/provision')
@Authenticated('admin')
export class ProvisionController {
  constructor(
    private readonly commands: CommandBus,
    private readonly fleet: FleetQueries,
  ) {}

  private async record(id: number) {
    const node = await this.fleet.provisionedNode(id);
    if (!node) throw new DomainError('not_found', 'Node not found');
    return node;
  }

  @Post('deploy')
  @HttpCode(200)
  @ReadBody(DEPLOY_SCHEMA)
  @Reply(200, DEPLOY_RESULT, 'the record (status `planned`) and its plan; nothing is executed')
  @Refusal(400, '`target_host is required`, or a malformed field')
  async deploy(@Body() body: unknown, @CurrentUser() admin: AuthUser, @RequestContext() context: CommandContext) {
    const request = deployRequest(body);
    const { id, plan } = await this.commands.execute(new RecordDeploy({ request, by: admin.id }, context));
    return { success: true as const, executed: false as const, message: NOT_EXECUTED, node: await this.record(id), plan };
  }

  @Get('nodes')
  @Reply(200, PROVISION_NODES)
  async nodes() {
    const nodes = await this.fleet.provisionedNodes();
    return { count: nodes.length, nodes };
  }

  @Get('nodes/:id')
  @PathParam('id', { type: 'integer', minimum: 0 })
  @Reply(200, PROVISION_RECORD)
  @Refusal(404, '`Node not found`')
  node(@Param('id') id: string) {
    return this.record(provisionId(id));
  }

  @Delete('nodes/:id')
  @PathParam('id', { type: 'integer', minimum: 0 })
  @Reply(200, DECOMMISSIONED, 'the record is `decommissioned`; nothing is uninstalled')
  @Refusal(404, '`Node not found`')
  async decommission(@Param('id') raw: string, @CurrentUser() admin: AuthUser, @RequestContext() context: CommandContext) {
    const id = provisionId(raw);
    await this.commands.execute(new DecommissionProvisionedNode({ id, by: admin.id }, context));
    return { success: true as const, message: `Node ${id} marked decommissioned; nothing was uninstalled` };
  }

  @Post('update/:id')
  @HttpCode(200)
  @PathParam('id', { type: 'integer', minimum: 0 })
  @Reply(200, DEPLOY_RESULT, 'the update plan, recorded; nothing is executed and the status does not change')
  @Refusal(400, '`Node is decommissioned`')
  @Refusal(404, '`Node not found`')
  async update(@Param('id') raw: string, @CurrentUser() admin: AuthUser, @RequestContext() context: CommandContext) {
    const id = provisionId(raw);
    const { plan } = await this.commands.execute(new PlanProvisionUpdate({ id, by: admin.id }, context));
    return { success: true as const, executed: false as const, message: NOT_EXECUTED, node: await this.record(id), plan };
  }

  /** Honest and empty: nothing is scanned (`scanned: false`), so `count: 0` says nothing about the subnet. */
  @Post('scan')
  @HttpCode(200)
  @ReadBody(SCAN_SCHEMA)
  @Reply(200, SCAN_RESULT, 'nothing is scanned: `scanned: false`, no targets, and why')
  @Refusal(400, 'a subnet that is not an IPv4 CIDR')
  scan(@Body() body: unknown) {
    return { count: 0, targets: [], subnet: scanSubnet(body), scanned: false as const, message: SCAN_UNSUPPORTED };
  }

  @Post('preflight')
  @HttpCode(200)
  @ReadBody(PREFLIGHT_SCHEMA)
  @Reply(200, PREFLIGHT, 'what can be checked without running anything; `ready` is false because the remote checks were not run')
  @Refusal(400, '`target_host is required`, or a malformed field')
  preflight(@Body() body: unknown) {
    const request = deployRequest(body);
    const notRun = 'not run: this service opens no connections to other machines';
    return {
      target_host: request.target_host,
      ssh_user: request.ssh_user,
      executed: false as const,
      ready: false,
      checks: [
        { check: 'target_host', passed: true, detail: 'a host name or IP address' },
        { check: 'ssh_user', passed: true, detail: 'a valid user name' },
        { check: 'ssh_key_path', passed: request.ssh_key_path === null ? null : true, detail: request.ssh_key_path === null ? 'none given: the agent’s default key would be used' : 'a well-formed path (not read)' },
        { check: 'ssh_reachable', passed: null, detail: notRun },
        { check: 'disk_space', passed: null, detail: notRun },
        { check: 'python_runtime', passed: null, detail: notRun },
      ],
    };
  }
}
