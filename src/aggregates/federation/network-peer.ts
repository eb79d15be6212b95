/**
 * A peer node this node knows of for discovery and routing (social-routes
 * §19, /peers), stream `networkPeer-<nodeId>`:
 *
 * - `PeerAnnounced`: the node itself said where it is and what it offers
 *   (POST /peers/announce, signed by it; or POST /federation/follow-notification);
 *   `is_new` when this node did not know it. An announcement repeating the
 *   last one within `refreshAfterMs` records nothing (its freshness is the
 *   last one's); otherwise it is recorded again (last_seen_at moves).
 * - `PeerLearned`: another node listed it in POST /peers/exchange. Second-hand,
 *   so it is recorded only for a node not known yet, and never overrides
 *   what the node announced itself.
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever } from '../shared/domain-error';

export interface PeerDescription {
  node_id: string;
  url: string;
  name: string | null;
  tier: string;
  has_gpu: boolean;
  vram_free_gb: number;
  /** the tasks it serves: chat, stt, tts, vlm */
  tasks: string[];
}

export type PeerAnnounced = DomainEvent<'PeerAnnounced', PeerDescription & { is_new: boolean; announced_at: string }>;
export type PeerLearned = DomainEvent<'PeerLearned', PeerDescription & { learned_from: string; learned_at: string }>;
export type NetworkPeerEvent = PeerAnnounced | PeerLearned;

export const networkPeerStreamId = (nodeId: string): string => `networkPeer-${nodeId}`;

export type NetworkPeerState =
  | { known: false }
  | { known: true; announced: boolean; description: PeerDescription; lastAnnouncedAt: string | null };

export type NetworkPeerCommand =
  | { kind: 'announce'; peer: PeerDescription; refreshAfterMs: number }
  | { kind: 'learn'; peer: PeerDescription; from: string };

const sameDescription = (a: PeerDescription, b: PeerDescription): boolean => JSON.stringify(a) === JSON.stringify(b);

export const networkPeerDecider: Decider<NetworkPeerState, NetworkPeerCommand, NetworkPeerEvent> = {
  initialState: { known: false },
  evolve(state, event) {
    switch (event.type) {
      case 'PeerAnnounced': {
        const { is_new: _n, announced_at, ...description } = event.data;
        return { known: true, announced: true, description, lastAnnouncedAt: announced_at };
      }
      case 'PeerLearned': {
        const { learned_from: _f, learned_at: _a, ...description } = event.data;
        return state.known ? state : { known: true, announced: false, description, lastAnnouncedAt: null };
      }
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'announce': {
        if (
          state.known &&
          state.announced &&
          state.lastAnnouncedAt !== null &&
          sameDescription(state.description, command.peer) &&
          now.getTime() - Date.parse(state.lastAnnouncedAt) < command.refreshAfterMs
        ) {
          return [];
        }
        return [{ type: 'PeerAnnounced', data: { ...command.peer, is_new: !state.known, announced_at: at } }];
      }
      case 'learn':
        return state.known ? [] : [{ type: 'PeerLearned', data: { ...command.peer, learned_from: command.from, learned_at: at } }];
      default:
        return assertNever(command);
    }
  },
};
