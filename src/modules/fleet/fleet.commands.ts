/** Commands of the fleet context (social-routes §18), dispatched on the @nestjs/cqrs CommandBus. */
import type { ComputeInfo, FleetTier } from '../../aggregates/fleet/fleet-node';
import type { DeployRequest, PlanStep } from '../../aggregates/fleet/provisioning';
import type { FleetCommandRecord } from '../../aggregates/fleet/fleet-command';
import { DomainCommand } from '../common/domain-command';

export class RegisterFleetNode extends DomainCommand<
  { nodeId: string; tier: 'regional' | 'local'; publicKey: string; regionName: string | null; certificate: string | null; computeInfo: ComputeInfo; geoInfo: ComputeInfo; by: string },
  { node_id: string; tier: string; region_id: string | null }
> {}

/** Puts a local node in a region: `regionId` null lets central choose (assign-region). */
export class AssignRegion extends DomainCommand<{ nodeId: string; regionId: string | null; reason: 'assignment' | 'switch'; by: string }, { node_id: string; region_id: string | null }> {}

export class ReportCapacity extends DomainCommand<{ nodeId: string; computeInfo: ComputeInfo }, { node_id: string; reported_at: string }> {}

export class PromoteNode extends DomainCommand<{ nodeId: string; regionName: string; by: string }, FleetCommandRecord> {}
export class DemoteNode extends DomainCommand<{ nodeId: string; reason: string; by: string }, FleetCommandRecord> {}

/** This node moves to central (the challenge and the master's signature were verified by the caller). */
export class UpgradeToCentral extends DomainCommand<{ currentTier: FleetTier; masterPublicKey: string; challenge: string }, { upgraded: boolean }> {}

export class RecordDeploy extends DomainCommand<{ request: DeployRequest; by: string }, { id: number; plan: PlanStep[] }> {}
export class PlanProvisionUpdate extends DomainCommand<{ id: number; by: string }, { plan: PlanStep[] }> {}
export class DecommissionProvisionedNode extends DomainCommand<{ id: number; by: string }, void> {}
