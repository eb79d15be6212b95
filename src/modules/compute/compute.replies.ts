/** Reply schemas of the compute routes for the OpenAPI document (plain JSON, as SPEC §4.3 shows). */
import { COMPUTE_FIELDS, FIELD_KINDS, type FieldKind } from '../../aggregates/compute/compute-fields';
import { bool, int, type JsonSchema, list, num, obj, oneOf, str } from '../common/openapi';

function fieldSchema(kind: FieldKind): JsonSchema {
  switch (kind.kind) {
    case 'enum':
      return oneOf(kind.values);
    case 'percent':
      return int({ minimum: 0, maximum: 100 });
    case 'count':
      return int({ minimum: 0 });
    case 'amount':
      return num({ minimum: 0 });
    case 'boolean':
      return bool();
  }
}

const SETTINGS_FIELDS = Object.fromEntries(COMPUTE_FIELDS.map((field) => [field, fieldSchema(FIELD_KINDS[field])]));
const money = num();

export const COMPUTE_SETTINGS = obj({
  node_id: str(),
  node_tier: str(),
  ...SETTINGS_FIELDS,
  sources: { type: 'object', additionalProperties: oneOf(['environment', 'stored', 'default', 'tier']) },
});
export const SETTINGS_UPDATE = obj({ updated: bool(), node_id: str(), policy_fields: list(str()), peer_fields: list(str()) });
export const CENTRAL_REFUSAL_NOTE = 'on a central node, `allow_metered_for_hive: true` (`Central nodes cannot enable metered APIs for hive`)';

const PROVIDER_DASHBOARD = obj({
  node_id: str(),
  node_tier: str(),
  contribution: obj({ score: num(), breakdown: { type: 'object', additionalProperties: num() } }),
  compute_stats: obj({ gpu_hours_served: num(), total_inferences: int(), energy_kwh_contributed: num(), metered_api_costs_absorbed: num() }),
  provider_identity: obj({ cause_alignment: str(), electricity_rate_kwh: num() }),
  pending_settlements: obj({ count: int(), total_usd: money }),
  reward_summary: obj({ total_spark_earned: num(), total_rewards: int() }),
  local: bool(),
  joined: bool(),
});
export const PROVIDER_VIEW = { anyOf: [PROVIDER_DASHBOARD, obj({ nodes: list(PROVIDER_DASHBOARD) }, [], { description: '?scope=all' })] };
export const PROVIDER_JOINED = obj(
  { joined: { const: true }, node_id: str(), config: obj(SETTINGS_FIELDS), ignored_fields: list(str(), { description: 'policy fields of a caller who may not set them' }) },
  ['ignored_fields'],
);
export const SERVED_RECORDED = obj({ recorded: bool({ description: 'false for a report_id seen before' }), report_id: str() });
export const SETTLEMENT_REQUESTED = obj({ settlement_id: str(), amount_usd: money, status: { const: 'pending' } });
export const SETTLEMENT_COMPLETED = obj({ settlement_id: str(), status: { const: 'completed' } });
export const REVENUE_DASHBOARD = obj({
  revenue: obj(
    Object.fromEntries(
      ['period_days', 'api_revenue', 'ad_revenue', 'hosting_payouts', 'total_gross', 'user_pool_share', 'infra_pool_share', 'central_share'].map((f) => [f, num()]),
    ),
  ),
  trading: obj({ portfolios: int(), total_pnl: num() }),
  compute_borrowing: obj({ active_escrows: int(), total_spark_escrowed: num() }),
});
export const REVENUE_RECORDED = obj({ recorded: bool({ description: 'false for an entry_id seen before' }), entry_id: str() });
