/**
 * What two of the §19 operation types do when a child node's batch brings
 * them (POST /hierarchy/sync): the same as the §18 routes a child would call
 * itself, with the batch's signature standing for the route's.
 *
 * - `update_stats` `{node_id, compute_info}`: the child's capacity report
 *   (POST /hierarchy/report-capacity): its own only; a node not registered
 *   in the hierarchy here is the item's error (`Node not found`).
 * - `register_node` `{node_id, public_key, compute_info, geo_info}`: the
 *   child registers as a local node (POST /hierarchy/register-local): its
 *   own id, the key it signed the batch with, and only at a central node.
 *
 * A refusal is a DomainError: the batch handler records it as the item's
 * error (the child retries it, dead at the 5th).
 */
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import type { NodeKeyDirectory } from '../../infrastructure/node-identity/signed-request';
import type { CommandContext } from '../common/command-executor';
import { RegisterFleetNode, ReportCapacity } from '../fleet/fleet.commands';
import { CENTRAL_REQUIRED } from '../fleet/fleet.guards';
import { FleetQueries } from '../fleet/fleet.queries';
import { capacityRequest, registerLocalRequest } from '../fleet/fleet.requests';
import { NODE_KEY_DIRECTORY } from '../integrity/node-signature.guard';

@Injectable()
export class HierarchySyncEffects {
  constructor(
    private readonly commands: CommandBus,
    private readonly fleet: FleetQueries,
    @Inject(NODE_KEY_DIRECTORY) private readonly keys: NodeKeyDirectory,
  ) {}

  async updateStats(sender: string, payload: unknown, context: CommandContext): Promise<void> {
    const { nodeId, computeInfo } = capacityRequest(payload);
    if (nodeId !== sender) throw new DomainError('forbidden', 'update_stats: a node reports its own capacity only');
    await this.commands.execute(new ReportCapacity({ nodeId, computeInfo }, context));
  }

  async registerNode(sender: string, payload: unknown, context: CommandContext): Promise<void> {
    const request = registerLocalRequest(payload);
    if (request.nodeId !== sender) throw new DomainError('forbidden', 'register_node: a node registers itself only');
    if ((await this.keys.publicKeyOf(sender)) !== request.publicKey) throw new DomainError('forbidden', 'register_node: public_key is not the key the batch was signed with');
    if ((await this.fleet.effectiveTier()).tier !== 'central') throw new DomainError('forbidden', CENTRAL_REQUIRED);
    await this.commands.execute(new RegisterFleetNode({ ...request, tier: 'local', regionName: null, certificate: null, by: `node:${sender}` }, context));
  }
}
