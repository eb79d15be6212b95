/**
 * Who this node follows and who follows it (social-routes §19):
 *
 * - `federationFollowing-<peerNodeId>`: an admin follows a peer node
 *   (POST /federation/follow: `FederationFollowStarted`, `created` false when
 *   already followed; a new URL is recorded again) and unfollows it
 *   (`FederationFollowStopped`; unfollowing a node not followed records nothing).
 * - `federationFollower-<nodeId>`: a node told this one it follows it
 *   (POST /federation/follow-notification, signed by that node):
 *   `FederationFollowerAdded`, once per URL.
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever } from '../shared/domain-error';

export type FederationFollowStarted = DomainEvent<'FederationFollowStarted', { peer_node_id: string; peer_url: string; followed_by: string; followed_at: string }>;
export type FederationFollowStopped = DomainEvent<'FederationFollowStopped', { peer_node_id: string; unfollowed_by: string; unfollowed_at: string }>;
export type FederationFollowerAdded = DomainEvent<'FederationFollowerAdded', { follower_node_id: string; follower_url: string; added_at: string }>;
export type FederationFollowEvent = FederationFollowStarted | FederationFollowStopped | FederationFollowerAdded;

export const federationFollowingStreamId = (peerNodeId: string): string => `federationFollowing-${peerNodeId}`;
export const federationFollowerStreamId = (nodeId: string): string => `federationFollower-${nodeId}`;

export type FederationFollowState = { following: boolean; url: string | null; follower: boolean; followerUrl: string | null };

export type FederationFollowCommand =
  | { kind: 'follow'; peerNodeId: string; peerUrl: string; by: string }
  | { kind: 'unfollow'; peerNodeId: string; by: string }
  | { kind: 'addFollower'; followerNodeId: string; followerUrl: string };

export const federationFollowDecider: Decider<FederationFollowState, FederationFollowCommand, FederationFollowEvent> = {
  initialState: { following: false, url: null, follower: false, followerUrl: null },
  evolve(state, event) {
    switch (event.type) {
      case 'FederationFollowStarted':
        return { ...state, following: true, url: event.data.peer_url };
      case 'FederationFollowStopped':
        return { ...state, following: false };
      case 'FederationFollowerAdded':
        return { ...state, follower: true, followerUrl: event.data.follower_url };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'follow':
        if (state.following && state.url === command.peerUrl) return [];
        return [{ type: 'FederationFollowStarted', data: { peer_node_id: command.peerNodeId, peer_url: command.peerUrl, followed_by: command.by, followed_at: at } }];
      case 'unfollow':
        return state.following ? [{ type: 'FederationFollowStopped', data: { peer_node_id: command.peerNodeId, unfollowed_by: command.by, unfollowed_at: at } }] : [];
      case 'addFollower':
        if (state.follower && state.followerUrl === command.followerUrl) return [];
        return [{ type: 'FederationFollowerAdded', data: { follower_node_id: command.followerNodeId, follower_url: command.followerUrl, added_at: at } }];
      default:
        return assertNever(command);
    }
  },
};
