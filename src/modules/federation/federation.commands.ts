/** Commands of the federation context (node registry), dispatched on the @nestjs/cqrs CommandBus. */
import type { FederationNodeTier } from '../../aggregates/federation/federation-node';
import { DomainCommand } from '../common/domain-command';

export interface FederationNodeRecord {
  node_id: string;
  public_key: string;
  url: string;
  tier: FederationNodeTier;
  status: 'pending' | 'approved';
}

/** A node registers its key (its request signed by that key, verified by the controller). */
export class RegisterFederationNode extends DomainCommand<{ nodeId: string; publicKey: string; url: string; tier: FederationNodeTier }, FederationNodeRecord> {}

/** An admin approves a registered node: its key is trusted from then on. */
export class ApproveFederationNode extends DomainCommand<{ nodeId: string; by: string }, FederationNodeRecord> {}
