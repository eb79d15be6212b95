/** Reply schemas of the fleet and hierarchy routes (raw replies, social-routes §18). */
import { FLEET_COMMAND_TYPES } from '../../aggregates/fleet/fleet-command';
import { bool, int, list, num, obj, oneOf, orNull, str } from '../common/openapi';

const time = str({ format: 'date-time' });
const open = { type: 'object', additionalProperties: true };

export const COMMAND_RECORD = obj({
  command_id: str(),
  target_node_id: str(),
  cmd_type: oneOf(FLEET_COMMAND_TYPES),
  params: open,
  issued_by: str(),
  signature: orNull(str()),
  created_at: time,
});
export const TIER_CHANGE = obj({ success: { const: true }, message: str(), command: COMMAND_RECORD });
const NODE = obj({
  node_id: str(),
  tier: str(),
  region_id: orNull(str()),
  region_name: orNull(str()),
  has_certificate: bool(),
  compute_info: open,
  registered_at: time,
  last_seen_at: time,
  status: oneOf(['active', 'stale']),
});
export const INVENTORY = obj({
  success: { const: true },
  counts: obj({ central: int(), regional: int(), flat: int(), local: int(), total: int(), active: int(), stale: int() }),
  inventory: obj({}, [], { additionalProperties: list(NODE) }),
});
export const REGISTERED = obj({ success: { const: true }, node_id: str(), tier: str(), region_id: orNull(str()) });
export const ASSIGNED = obj({ success: { const: true }, node_id: str(), region_id: orNull(str()) });
const REGION = obj({ region_id: str(), region_name: orNull(str()), node_id: str(), status: oneOf(['active', 'stale']), local_count: int(), compute_info: open, last_seen_at: time });
export const REGIONS = obj({ success: { const: true }, data: list(REGION), count: int() });
export const REGION_HEALTH = obj({
  success: { const: true },
  region_id: str(),
  region_name: orNull(str()),
  status: oneOf(['healthy', 'stale']),
  last_seen_at: time,
  seconds_since_seen: int(),
  local_nodes: obj({ total: int(), active: int(), stale: int() }),
  capacity: obj({ compute_units: num() }),
});
export const ASSIGNMENT = obj({ success: { const: true }, node_id: str(), region_id: str(), region_name: orNull(str()), regional_node_id: str(), assigned_at: orNull(time) });
export const CAPACITY = obj({ success: { const: true }, node_id: str(), reported_at: time });
export const TIER_INFO = obj({
  success: { const: true },
  node_id: str(),
  tier: oneOf(['flat', 'regional', 'central', 'local']),
  configured_tier: str(),
  upgraded_at: orNull(time),
  master_key_configured: bool(),
});
export const UPGRADE_CHALLENGE = obj({ success: { const: true }, challenge: str({ pattern: '^[0-9a-f]{64}$' }), expires_at: time, expires_in: int() });
export const UPGRADE_RESULT = obj({ success: { const: true }, node_id: str(), tier: { const: 'central' }, upgraded: bool() });
export const UPDATE_APPROVED = obj({ approved: { const: true }, version: str() });

const PLAN = list(obj({ step: str(), argv: list(str()) }));
export const PROVISION_RECORD = obj({
  id: int(),
  target_host: str(),
  ssh_user: str(),
  node_id: orNull(str()),
  capability_tier: orNull(str()),
  status: oneOf(['planned', 'decommissioned']),
  installed_version: orNull(str()),
  provisioned_at: time,
  last_health_check: orNull(time),
  provisioned_by: str(),
  error_message: orNull(str()),
  backend_port: int(),
  join_peer: orNull(str()),
  plan: PLAN,
  update_plan: orNull(PLAN),
  decommissioned_at: orNull(time),
});
export const DEPLOY_RESULT = obj({ success: { const: true }, executed: { const: false }, message: str(), node: PROVISION_RECORD, plan: PLAN });
export const PROVISION_NODES = obj({ count: int(), nodes: list(PROVISION_RECORD) });
export const PREFLIGHT = obj({
  target_host: str(),
  ssh_user: str(),
  executed: { const: false },
  ready: bool(),
  checks: list(obj({ check: str(), passed: orNull(bool()), detail: str() })),
});
export const DECOMMISSIONED = obj({ success: { const: true }, message: str() });
export const SCAN_RESULT = obj({ count: { const: 0 }, targets: list(str(), { maxItems: 0 }), subnet: orNull(str()), scanned: { const: false }, message: str() });
