/**
 * Another node's standing with this node (social-routes §20: bans with a
 * fraud score), stream `nodeStanding-<nodeId>`: an admin bans a node (its
 * fraud score becomes 100, the score at which §20 bans) or lifts the ban
 * (score 0). A banned node's signed requests are refused
 * (modules/integrity/node-signature.guard.ts). Banning a banned node or
 * lifting a ban that is not there records nothing.
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever } from '../shared/domain-error';

/** §20: a score of 80 bans a node; a ban by hand sets it to 100. */
export const BAN_FRAUD_SCORE = 100;

export type NodeBanned = DomainEvent<'NodeBanned', { node_id: string; reason: string; banned_by: string; fraud_score: number; banned_at: string }>;
export type NodeUnbanned = DomainEvent<'NodeUnbanned', { node_id: string; reason: string; unbanned_by: string; fraud_score: number; unbanned_at: string }>;
export type NodeStandingEvent = NodeBanned | NodeUnbanned;

export const nodeStandingStreamId = (nodeId: string): string => `nodeStanding-${nodeId}`;

export interface NodeStandingState {
  banned: boolean;
}

export type NodeStandingCommand = { kind: 'ban' | 'unban'; nodeId: string; reason: string; by: string };

export const nodeStandingDecider: Decider<NodeStandingState, NodeStandingCommand, NodeStandingEvent> = {
  initialState: { banned: false },
  evolve(_state, event) {
    switch (event.type) {
      case 'NodeBanned':
        return { banned: true };
      case 'NodeUnbanned':
        return { banned: false };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'ban':
        return state.banned
          ? []
          : [{ type: 'NodeBanned', data: { node_id: command.nodeId, reason: command.reason, banned_by: command.by, fraud_score: BAN_FRAUD_SCORE, banned_at: at } }];
      case 'unban':
        return state.banned ? [{ type: 'NodeUnbanned', data: { node_id: command.nodeId, reason: command.reason, unbanned_by: command.by, fraud_score: 0, unbanned_at: at } }] : [];
      default:
        return assertNever(command.kind);
    }
  },
};
