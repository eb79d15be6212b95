/**
 * Fleet commands (social-routes §18): what central queues for a node to
 * drain while it gossips. The types are fixed; any other is refused. A
 * command is recorded (`FleetCommandQueued`) in the target node's stream,
 * in the same append as the decision that queued it (a promotion, a
 * demotion), so the two cannot part.
 */
import { DomainError } from '../shared/domain-error';

export const FLEET_COMMAND_TYPES = [
  'config_update',
  'goal_assign',
  'sensor_config',
  'firmware_update',
  'halt',
  'restart',
  'tts_stream',
  'agent_consent',
  'estop',
  'estop_clear',
  'tier_promote',
  'tier_demote',
  'device_control',
] as const;
export type FleetCommandType = (typeof FLEET_COMMAND_TYPES)[number];

export const isFleetCommandType = (value: unknown): value is FleetCommandType => typeof value === 'string' && (FLEET_COMMAND_TYPES as readonly string[]).includes(value);

export interface FleetCommandRecord {
  command_id: string;
  target_node_id: string;
  cmd_type: FleetCommandType;
  params: Record<string, unknown>;
  issued_by: string;
  /** Ed25519 (hex) by the issuing node's key over the canonical command; null when not signed yet */
  signature: string | null;
  created_at: string;
}

/** A command record of a fixed type; any other type is refused (400). */
export function fleetCommand(fields: Omit<FleetCommandRecord, 'cmd_type'> & { cmd_type: string }): FleetCommandRecord {
  if (!isFleetCommandType(fields.cmd_type)) throw new DomainError('invalid', `Unknown fleet command type: ${fields.cmd_type}`);
  return { ...fields, cmd_type: fields.cmd_type };
}
