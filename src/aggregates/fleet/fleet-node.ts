/**
 * A node of the hierarchy as central knows it (social-routes §18), stream
 * `fleetNode-<nodeId>`: its tier (local, flat, regional, central), its key,
 * its region, its last reported capacity, and the fleet commands queued for
 * it. This node's own stream records an upgrade to central (verify-upgrade).
 *
 * - register: a regional or a local node registers (its key is pinned: a
 *   later registration with another key is refused, 409); registering again
 *   updates its details.
 * - assign: a local node is put in a region (at registration, by
 *   assign-region, or by its own switch-region); the same region again
 *   records nothing.
 * - promote: a node becomes regional with a region name (400 `Node is
 *   already regional`; 404 `Node not found`) and `tier_promote` is queued
 *   with restart_required.
 * - demote: a regional node goes back to flat (400 `Node is not regional`),
 *   its certificate cleared, and `tier_demote` is queued.
 * - report: its capacity (404 for a node central does not know).
 * - upgrade: this node moves to central (the upgrade challenge was verified
 *   by the caller); already central records nothing.
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever, DomainError } from '../shared/domain-error';
import { type FleetCommandRecord, fleetCommand } from './fleet-command';

export const FLEET_TIERS = ['central', 'regional', 'flat', 'local'] as const;
export type FleetTier = (typeof FLEET_TIERS)[number];

export type ComputeInfo = Record<string, unknown>;

export type FleetNodeRegistered = DomainEvent<
  'FleetNodeRegistered',
  {
    node_id: string;
    tier: 'regional' | 'local';
    public_key: string;
    region_name: string | null;
    certificate: string | null;
    compute_info: ComputeInfo;
    geo_info: ComputeInfo;
    registered_at: string;
  }
>;
export type FleetNodeRegionAssigned = DomainEvent<
  'FleetNodeRegionAssigned',
  { node_id: string; region_id: string; previous_region_id: string | null; reason: 'registration' | 'assignment' | 'switch'; requested_by: string; assigned_at: string }
>;
export type FleetNodeCapacityReported = DomainEvent<'FleetNodeCapacityReported', { node_id: string; compute_info: ComputeInfo; reported_at: string }>;
export type FleetNodePromoted = DomainEvent<
  'FleetNodePromoted',
  { node_id: string; from_tier: FleetTier; to_tier: 'regional'; region_name: string; promoted_by: string; command_id: string; promoted_at: string }
>;
export type FleetNodeDemoted = DomainEvent<
  'FleetNodeDemoted',
  { node_id: string; from_tier: 'regional'; to_tier: 'flat'; reason: string; demoted_by: string; command_id: string; demoted_at: string }
>;
export type FleetCommandQueued = DomainEvent<'FleetCommandQueued', FleetCommandRecord>;
export type NodeTierUpgraded = DomainEvent<
  'NodeTierUpgraded',
  { node_id: string; from_tier: FleetTier; to_tier: 'central'; master_public_key: string; challenge: string; upgraded_at: string }
>;

export type FleetNodeEvent = FleetNodeRegistered | FleetNodeRegionAssigned | FleetNodeCapacityReported | FleetNodePromoted | FleetNodeDemoted | FleetCommandQueued | NodeTierUpgraded;

export const fleetNodeStreamId = (nodeId: string): string => `fleetNode-${nodeId}`;

export interface FleetNodeState {
  known: boolean;
  tier: FleetTier | null;
  publicKey: string | null;
  regionId: string | null;
  certificate: string | null;
}

export type FleetNodeCommand =
  | {
      kind: 'register';
      nodeId: string;
      tier: 'regional' | 'local';
      publicKey: string;
      regionName: string | null;
      certificate: string | null;
      computeInfo: ComputeInfo;
      geoInfo: ComputeInfo;
      /** a local node's region, chosen by the caller from the regions it knows (null: none yet) */
      regionId: string | null;
      by: string;
    }
  | { kind: 'assign'; nodeId: string; regionId: string; reason: 'assignment' | 'switch'; by: string }
  | { kind: 'report'; nodeId: string; computeInfo: ComputeInfo }
  | { kind: 'promote'; nodeId: string; regionName: string; by: string; commandId: string }
  | { kind: 'demote'; nodeId: string; reason: string; by: string; commandId: string }
  | { kind: 'upgrade'; nodeId: string; currentTier: FleetTier; masterPublicKey: string; challenge: string };

export const NODE_NOT_FOUND = 'Node not found';
export const ALREADY_REGIONAL = 'Node is already regional';
export const NOT_REGIONAL = 'Node is not regional';
export const KEY_MISMATCH = 'Node is registered with another key';

export const fleetNodeDecider: Decider<FleetNodeState, FleetNodeCommand, FleetNodeEvent> = {
  initialState: { known: false, tier: null, publicKey: null, regionId: null, certificate: null },
  evolve(state, event) {
    switch (event.type) {
      case 'FleetNodeRegistered':
        return { ...state, known: true, tier: event.data.tier, publicKey: event.data.public_key, certificate: event.data.certificate };
      case 'FleetNodeRegionAssigned':
        return { ...state, regionId: event.data.region_id };
      case 'FleetNodeCapacityReported':
      case 'FleetCommandQueued':
        return state;
      case 'FleetNodePromoted':
        return { ...state, tier: 'regional' };
      case 'FleetNodeDemoted':
        return { ...state, tier: 'flat', certificate: null };
      case 'NodeTierUpgraded':
        return { ...state, known: true, tier: 'central' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'register': {
        if (state.publicKey !== null && state.publicKey !== command.publicKey) throw new DomainError('conflict', KEY_MISMATCH);
        const events: FleetNodeEvent[] = [
          {
            type: 'FleetNodeRegistered',
            data: {
              node_id: command.nodeId,
              tier: command.tier,
              public_key: command.publicKey,
              region_name: command.regionName,
              certificate: command.certificate,
              compute_info: command.computeInfo,
              geo_info: command.geoInfo,
              registered_at: at,
            },
          },
        ];
        const region = command.tier === 'regional' ? command.nodeId : command.regionId;
        if (region !== null && region !== state.regionId) {
          events.push({
            type: 'FleetNodeRegionAssigned',
            data: { node_id: command.nodeId, region_id: region, previous_region_id: state.regionId, reason: 'registration', requested_by: command.by, assigned_at: at },
          });
        }
        return events;
      }
      case 'assign':
        if (!state.known) throw new DomainError('not_found', NODE_NOT_FOUND);
        if (state.regionId === command.regionId) return [];
        return [
          {
            type: 'FleetNodeRegionAssigned',
            data: { node_id: command.nodeId, region_id: command.regionId, previous_region_id: state.regionId, reason: command.reason, requested_by: command.by, assigned_at: at },
          },
        ];
      case 'report':
        if (!state.known) throw new DomainError('not_found', NODE_NOT_FOUND);
        return [{ type: 'FleetNodeCapacityReported', data: { node_id: command.nodeId, compute_info: command.computeInfo, reported_at: at } }];
      case 'promote': {
        if (!state.known || state.tier === null) throw new DomainError('not_found', NODE_NOT_FOUND);
        if (state.tier === 'regional') throw new DomainError('invalid', ALREADY_REGIONAL);
        const queued = fleetCommand({
          command_id: command.commandId,
          target_node_id: command.nodeId,
          cmd_type: 'tier_promote',
          params: { new_tier: 'regional', region_name: command.regionName, restart_required: true },
          issued_by: command.by,
          signature: null,
          created_at: at,
        });
        return [
          {
            type: 'FleetNodePromoted',
            data: { node_id: command.nodeId, from_tier: state.tier, to_tier: 'regional', region_name: command.regionName, promoted_by: command.by, command_id: command.commandId, promoted_at: at },
          },
          { type: 'FleetCommandQueued', data: queued },
        ];
      }
      case 'demote': {
        if (!state.known) throw new DomainError('not_found', NODE_NOT_FOUND);
        if (state.tier !== 'regional') throw new DomainError('invalid', NOT_REGIONAL);
        const queued = fleetCommand({
          command_id: command.commandId,
          target_node_id: command.nodeId,
          cmd_type: 'tier_demote',
          params: { new_tier: 'flat', reason: command.reason, clear_certificate: true, restart_required: true },
          issued_by: command.by,
          signature: null,
          created_at: at,
        });
        return [
          {
            type: 'FleetNodeDemoted',
            data: { node_id: command.nodeId, from_tier: 'regional', to_tier: 'flat', reason: command.reason, demoted_by: command.by, command_id: command.commandId, demoted_at: at },
          },
          { type: 'FleetCommandQueued', data: queued },
        ];
      }
      case 'upgrade': {
        const current = state.tier ?? command.currentTier;
        if (current === 'central') return [];
        return [
          {
            type: 'NodeTierUpgraded',
            data: { node_id: command.nodeId, from_tier: current, to_tier: 'central', master_public_key: command.masterPublicKey, challenge: command.challenge, upgraded_at: at },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
