/**
 * Handlers of the fleet context: one decider per node (`fleetNode-<id>`,
 * aggregates/fleet/fleet-node.ts) and one for the provision records
 * (`provisioning-registry`). Region choices are read from the fleet read
 * model (a choice, not an invariant); the node's own stream decides.
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { FleetCommandRecord } from '../../aggregates/fleet/fleet-command';
import { type FleetNodeEvent, fleetNodeDecider, fleetNodeStreamId } from '../../aggregates/fleet/fleet-node';
import { type PlanStep, provisioningDecider, provisioningStreamId } from '../../aggregates/fleet/provisioning';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { CommandExecutor } from '../common/command-executor';
import { randomHex } from '../common/random-ids';
import {
  AssignRegion,
  DecommissionProvisionedNode,
  DemoteNode,
  PlanProvisionUpdate,
  PromoteNode,
  RecordDeploy,
  RegisterFleetNode,
  ReportCapacity,
  UpgradeToCentral,
} from './fleet.commands';
import { FleetQueries } from './fleet.queries';
import { chooseRegion } from './region-choice';

export const REGION_NOT_FOUND = 'Region not found';

function queued(events: FleetNodeEvent[]): FleetCommandRecord {
  const event = events.find((e) => e.type === 'FleetCommandQueued');
  if (!event || event.type !== 'FleetCommandQueued') throw new Error('expected FleetCommandQueued');
  return event.data;
}

@CommandHandler(RegisterFleetNode)
export class RegisterFleetNodeHandler implements ICommandHandler<RegisterFleetNode> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly fleet: FleetQueries,
  ) {}

  async execute({ payload, context }: RegisterFleetNode) {
    const regionId = payload.tier === 'local' ? chooseRegion(payload.geoInfo, await this.fleet.regionCandidates()) : null;
    const { state } = await this.executor.execute(fleetNodeDecider, fleetNodeStreamId(payload.nodeId), { kind: 'register', ...payload, regionId }, context);
    return { node_id: payload.nodeId, tier: state.tier ?? payload.tier, region_id: state.regionId };
  }
}

@CommandHandler(AssignRegion)
export class AssignRegionHandler implements ICommandHandler<AssignRegion> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly fleet: FleetQueries,
  ) {}

  async execute({ payload, context }: AssignRegion) {
    const node = await this.fleet.node(payload.nodeId);
    if (!node) throw new DomainError('not_found', 'Node not found');
    const candidates = await this.fleet.regionCandidates();
    let regionId = payload.regionId;
    if (regionId === null) {
      regionId = chooseRegion(node.geo_info ?? {}, candidates.filter((c) => c.region_id !== payload.nodeId));
      if (regionId === null) throw new DomainError('not_found', 'No region available');
    } else if (!candidates.some((c) => c.region_id === regionId)) {
      throw new DomainError('not_found', REGION_NOT_FOUND);
    }
    const { state } = await this.executor.execute(
      fleetNodeDecider,
      fleetNodeStreamId(payload.nodeId),
      { kind: 'assign', nodeId: payload.nodeId, regionId, reason: payload.reason, by: payload.by },
      context,
    );
    return { node_id: payload.nodeId, region_id: state.regionId };
  }
}

@CommandHandler(ReportCapacity)
export class ReportCapacityHandler implements ICommandHandler<ReportCapacity> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ReportCapacity) {
    const { events } = await this.executor.execute(fleetNodeDecider, fleetNodeStreamId(payload.nodeId), { kind: 'report', ...payload }, context);
    const reported = events.find((e) => e.type === 'FleetNodeCapacityReported');
    return { node_id: payload.nodeId, reported_at: reported?.type === 'FleetNodeCapacityReported' ? reported.data.reported_at : new Date().toISOString() };
  }
}

@CommandHandler(PromoteNode)
export class PromoteNodeHandler implements ICommandHandler<PromoteNode> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: PromoteNode): Promise<FleetCommandRecord> {
    const { events } = await this.executor.execute(fleetNodeDecider, fleetNodeStreamId(payload.nodeId), { kind: 'promote', ...payload, commandId: randomHex(16) }, context);
    return queued(events);
  }
}

@CommandHandler(DemoteNode)
export class DemoteNodeHandler implements ICommandHandler<DemoteNode> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: DemoteNode): Promise<FleetCommandRecord> {
    const { events } = await this.executor.execute(fleetNodeDecider, fleetNodeStreamId(payload.nodeId), { kind: 'demote', ...payload, commandId: randomHex(16) }, context);
    return queued(events);
  }
}

@CommandHandler(UpgradeToCentral)
export class UpgradeToCentralHandler implements ICommandHandler<UpgradeToCentral> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ payload, context }: UpgradeToCentral) {
    const { events } = await this.executor.execute(fleetNodeDecider, fleetNodeStreamId(this.config.nodeId), { kind: 'upgrade', nodeId: this.config.nodeId, ...payload }, context);
    return { upgraded: events.length > 0 };
  }
}

@CommandHandler(RecordDeploy)
export class RecordDeployHandler implements ICommandHandler<RecordDeploy> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: RecordDeploy): Promise<{ id: number; plan: PlanStep[] }> {
    const { events } = await this.executor.execute(provisioningDecider, provisioningStreamId(), { kind: 'record', ...payload }, context);
    const recorded = events[0];
    if (recorded?.type !== 'ProvisionedNodeRecorded') throw new Error('expected ProvisionedNodeRecorded');
    return { id: recorded.data.id, plan: recorded.data.plan };
  }
}

@CommandHandler(PlanProvisionUpdate)
export class PlanProvisionUpdateHandler implements ICommandHandler<PlanProvisionUpdate> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: PlanProvisionUpdate): Promise<{ plan: PlanStep[] }> {
    const { events } = await this.executor.execute(provisioningDecider, provisioningStreamId(), { kind: 'planUpdate', ...payload }, context);
    const planned = events[0];
    if (planned?.type !== 'ProvisionedNodeUpdatePlanned') throw new Error('expected ProvisionedNodeUpdatePlanned');
    return { plan: planned.data.plan };
  }
}

@CommandHandler(DecommissionProvisionedNode)
export class DecommissionProvisionedNodeHandler implements ICommandHandler<DecommissionProvisionedNode> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: DecommissionProvisionedNode): Promise<void> {
    await this.executor.execute(provisioningDecider, provisioningStreamId(), { kind: 'decommission', ...payload }, context);
  }
}
