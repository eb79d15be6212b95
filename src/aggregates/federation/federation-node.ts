/**
 * A node registered with this (central) node for federation (issue 17,
 * item 2), stream `federationNode-<nodeId>`: a regional node registers its
 * Ed25519 public key, URL and tier (a request signed by that key); an admin
 * approves it, or central approves it at once when it runs with
 * FEDERATION_AUTO_ACCEPT=1. An approved node's key is trusted for signed
 * node-to-node requests (the log export among them).
 *
 * Registering again with the same key and details records nothing (a
 * regional node registers at every start); a different URL or tier is
 * recorded as a new registration and keeps the approval; a different key is
 * refused with 409 (a key change needs an operator, not a request signed by
 * the new key). Approving an approved node records nothing.
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever, DomainError } from '../shared/domain-error';

export type FederationNodeTier = 'regional' | 'central' | 'flat';

export type FederationNodeRegistered = DomainEvent<
  'FederationNodeRegistered',
  { node_id: string; public_key: string; url: string; tier: FederationNodeTier; registered_at: string }
>;
export type FederationNodeApproved = DomainEvent<'FederationNodeApproved', { node_id: string; approved_by: string; approved_at: string }>;
export type FederationNodeEvent = FederationNodeRegistered | FederationNodeApproved;

export const federationNodeStreamId = (nodeId: string): string => `federationNode-${nodeId}`;

export type FederationNodeState =
  | { status: 'unknown' }
  | { status: 'pending' | 'approved'; publicKey: string; url: string; tier: FederationNodeTier };

export type FederationNodeCommand =
  | { kind: 'register'; nodeId: string; publicKey: string; url: string; tier: FederationNodeTier; autoApprove: boolean }
  | { kind: 'approve'; nodeId: string; by: string };

export const federationNodeDecider: Decider<FederationNodeState, FederationNodeCommand, FederationNodeEvent> = {
  initialState: { status: 'unknown' },
  evolve(state, event) {
    switch (event.type) {
      case 'FederationNodeRegistered': {
        const d = event.data;
        return { status: state.status === 'approved' ? 'approved' : 'pending', publicKey: d.public_key, url: d.url, tier: d.tier };
      }
      case 'FederationNodeApproved':
        return state.status === 'unknown' ? state : { ...state, status: 'approved' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'register': {
        if (state.status !== 'unknown') {
          if (state.publicKey !== command.publicKey) throw new DomainError('conflict', 'Node is registered with another key');
          if (state.url === command.url && state.tier === command.tier) {
            return state.status === 'pending' && command.autoApprove ? [approved(command.nodeId, 'system:federation-auto-accept', at)] : [];
          }
        }
        const registered: FederationNodeEvent = {
          type: 'FederationNodeRegistered',
          data: { node_id: command.nodeId, public_key: command.publicKey, url: command.url, tier: command.tier, registered_at: at },
        };
        return command.autoApprove && state.status !== 'approved' ? [registered, approved(command.nodeId, 'system:federation-auto-accept', at)] : [registered];
      }
      case 'approve':
        if (state.status === 'unknown') throw new DomainError('not_found', 'Node not found');
        return state.status === 'approved' ? [] : [approved(command.nodeId, command.by, at)];
      default:
        return assertNever(command);
    }
  },
};

function approved(nodeId: string, by: string, at: string): FederationNodeApproved {
  return { type: 'FederationNodeApproved', data: { node_id: nodeId, approved_by: by, approved_at: at } };
}
