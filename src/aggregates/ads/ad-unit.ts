/**
 * An ad unit (social-routes §16), stream `adUnit-<adId>`: the advertiser's
 * budget, what was spent of it, and every charged impression and click.
 *
 * - The whole budget is held in the advertiser's wallet before the unit is
 *   created (src/aggregates/contest/wallet.ts, SparkHeld, hold id = ad id);
 *   completing the unit gives back the unspent part (SparkHoldReleased). So
 *   held = spent + refunded, to the centi-spark.
 * - Money is counted in whole centi-spark: the budget is whole spark, costs
 *   are multiples of 0.01 spark, so spent_spark keeps its fraction exactly
 *   (the original truncated it to an integer, §23: with the default cost of
 *   0.1 it never grew).
 * - Every charge is decided on this one stream, so concurrent impressions can
 *   neither pass the rate limits (3 views, 1 click per user and ad in any
 *   hour) nor spend past the budget. A charge the remaining budget does not
 *   cover exhausts the unit (AdUnitExhausted) and is refused; an exhausted,
 *   paused or completed unit is not found for impressions and clicks.
 * - With a node id and its operator (resolved by the caller), the operator's
 *   share of the charge is 90% when a peer node witnessed it (the caller
 *   verified the witness' signature), else 50%, in milli-spark; the operator's
 *   wallet accrues it and pays whole spark (AdRevenueShared). The rest of the
 *   cost is the platform's. A witness signature counts once per user.
 */
import { createHash } from 'node:crypto';
import type { Decider } from '../shared/decider';
import { assertNever, DomainError } from '../shared/domain-error';

export const AD_STATUSES = ['active', 'paused', 'exhausted', 'completed'] as const;
export type AdStatus = (typeof AD_STATUSES)[number];
export const IMPRESSION_TYPES = ['view', 'click'] as const;
export type ImpressionType = (typeof IMPRESSION_TYPES)[number];

export const AD_NOT_FOUND = 'Ad not found';
export const VIEW_RATE_LIMITED = 'Rate limit exceeded';
export const CLICK_RATE_LIMITED = 'Click rate limit exceeded';
export const BUDGET_EXHAUSTED = 'Ad budget exhausted';
export const MINIMUM_BUDGET = 'Minimum budget is 50 Spark';

export const MIN_BUDGET_SPARK = 50;
export const MAX_BUDGET_SPARK = 1_000_000;
export const RATE_WINDOW_MS = 3_600_000;
export const LIMIT_PER_HOUR: Readonly<Record<ImpressionType, number>> = { view: 3, click: 1 };
/** The node operator's share of a charge, in percent. */
export const WITNESSED_SHARE_PCT = 90;
export const UNWITNESSED_SHARE_PCT = 50;

export interface AdTargeting {
  region_ids: string[];
  community_ids: string[];
  user_types: string[];
}

export interface AdUnitFields {
  ad_id: string;
  advertiser_id: string;
  title: string;
  content: string;
  image_url: string | null;
  click_url: string;
  ad_type: string;
  targeting: AdTargeting;
  budget_spark: number;
  cost_per_impression: number;
  cost_per_click: number;
  starts_at: string | null;
  ends_at: string | null;
}

export type AdUnitCreated = { type: 'AdUnitCreated'; data: AdUnitFields & { created_at: string } };

export type AdImpressionRecorded = {
  type: 'AdImpressionRecorded';
  data: {
    impression_id: string;
    ad_id: string;
    advertiser_id: string;
    impression_type: ImpressionType;
    user_id: string;
    placement_id: string | null;
    node_id: string | null;
    region_id: string | null;
    witness_node_id: string | null;
    witness_signature: string | null;
    /** the witness' signature verified against a registered node key (and not used before by this user) */
    witnessed: boolean;
    sealed_hash: string;
    /** what the charge cost, spark with its fraction */
    cost_spark: number;
    /** the unit's spent_spark after the charge */
    spent_spark: number;
    /** budget − spent after the charge */
    remaining_spark: number;
    /** the node's operator (a user id), when a node with an operator served it */
    operator_id: string | null;
    /** the operator's share of the cost (spark, to the milli-spark); 0 without an operator */
    operator_share_spark: number;
    created_at: string;
  };
};

export type AdUnitExhausted = { type: 'AdUnitExhausted'; data: { ad_id: string; advertiser_id: string; budget_spark: number; spent_spark: number; exhausted_at: string } };

export type AdUnitCompleted = {
  type: 'AdUnitCompleted';
  data: { ad_id: string; advertiser_id: string; budget_spark: number; spent_spark: number; refunded_spark: number; completed_by: string; completed_at: string };
};

export type AdUnitEvent = AdUnitCreated | AdImpressionRecorded | AdUnitExhausted | AdUnitCompleted;

/** One charge of a user, kept for an hour: the rate limits and the once-only witness signatures. */
interface RecentCharge {
  at: number;
  type: ImpressionType;
  signature: string | null;
}

export type AdUnitState =
  | { status: 'none' }
  | {
      status: AdStatus;
      id: string;
      advertiserId: string;
      budgetCenti: number;
      spentCenti: number;
      costCenti: Readonly<Record<ImpressionType, number>>;
      /** the charges of the last hour per user (pruned as time goes by) */
      recent: ReadonlyMap<string, readonly RecentCharge[]>;
      prunedAt: number;
    };

export type CreateAdUnit = { kind: 'create' } & AdUnitFields;

export interface ChargeAd {
  kind: 'charge';
  impressionId: string;
  type: ImpressionType;
  userId: string;
  placementId: string | null;
  nodeId: string | null;
  regionId: string | null;
  witnessNodeId: string | null;
  witnessSignature: string | null;
  /** the caller verified the witness' signature */
  witnessVerified: boolean;
  /** the served node's operator, resolved by the caller; null: no share */
  operatorId: string | null;
}

export type AdUnitCommand = CreateAdUnit | ChargeAd | { kind: 'complete'; by: string; asAdmin: boolean };

export const adUnitStreamId = (adId: string): string => `adUnit-${adId}`;

/** Spark (a multiple of 0.01) as whole centi-spark; null when it is not one. */
export function toCenti(spark: number): number | null {
  if (!Number.isFinite(spark)) return null;
  const centi = Math.round(spark * 100);
  return Math.abs(centi - spark * 100) < 1e-6 ? centi : null;
}

export const fromCenti = (centi: number): number => centi / 100;

/** The operator's share of a cost, in milli-spark (exact: a centi-spark is 10 milli-spark). */
export const operatorShareMilli = (costCenti: number, witnessed: boolean): number => (costCenti * 10 * (witnessed ? WITNESSED_SHARE_PCT : UNWITNESSED_SHARE_PCT)) / 100;

function sealedHash(fields: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** The user's charges within the hour before `now`. */
function withinHour(charges: readonly RecentCharge[] | undefined, now: number): RecentCharge[] {
  return (charges ?? []).filter((c) => c.at > now - RATE_WINDOW_MS);
}

export const adUnitDecider: Decider<AdUnitState, AdUnitCommand, AdUnitEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'AdUnitCreated': {
        const d = event.data;
        return {
          status: 'active',
          id: d.ad_id,
          advertiserId: d.advertiser_id,
          budgetCenti: d.budget_spark * 100,
          spentCenti: 0,
          costCenti: { view: toCenti(d.cost_per_impression) ?? 0, click: toCenti(d.cost_per_click) ?? 0 },
          recent: new Map(),
          prunedAt: Date.parse(d.created_at),
        };
      }
      case 'AdImpressionRecorded': {
        if (state.status === 'none') return state;
        const d = event.data;
        const at = Date.parse(d.created_at);
        // once an hour of event time, users without a charge in the last hour are forgotten
        const prune = at - state.prunedAt >= RATE_WINDOW_MS;
        const recent = new Map(prune ? [...state.recent].filter(([, charges]) => withinHour(charges, at).length > 0) : state.recent);
        recent.set(d.user_id, [...withinHour(recent.get(d.user_id), at), { at, type: d.impression_type, signature: d.witnessed ? d.witness_signature : null }]);
        return { ...state, spentCenti: state.spentCenti + (toCenti(d.cost_spark) ?? 0), recent, prunedAt: prune ? at : state.prunedAt };
      }
      case 'AdUnitExhausted':
        return state.status === 'none' ? state : { ...state, status: 'exhausted' };
      case 'AdUnitCompleted':
        return state.status === 'none' ? state : { ...state, status: 'completed', recent: new Map() };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'create': {
        if (state.status !== 'none') return [];
        const { kind: _kind, ...fields } = command;
        if (!Number.isInteger(fields.budget_spark) || fields.budget_spark < MIN_BUDGET_SPARK || fields.budget_spark > MAX_BUDGET_SPARK) {
          throw new DomainError('invalid', MINIMUM_BUDGET);
        }
        for (const [name, cost] of [['cost_per_impression', fields.cost_per_impression], ['cost_per_click', fields.cost_per_click]] as const) {
          const centi = toCenti(cost);
          if (centi === null || centi < 1 || centi > fields.budget_spark * 100) {
            throw new DomainError('invalid', `${name} must be a multiple of 0.01 from 0.01 to the budget`);
          }
        }
        return [{ type: 'AdUnitCreated', data: { ...fields, created_at: now.toISOString() } }];
      }
      case 'charge': {
        if (state.status !== 'active') throw new DomainError('not_found', AD_NOT_FOUND);
        const at = now.getTime();
        const recent = withinHour(state.recent.get(command.userId), at);
        if (recent.filter((c) => c.type === command.type).length >= LIMIT_PER_HOUR[command.type]) {
          throw new DomainError('rate_limited', command.type === 'view' ? VIEW_RATE_LIMITED : CLICK_RATE_LIMITED);
        }
        const cost = state.costCenti[command.type];
        if (state.spentCenti + cost > state.budgetCenti) {
          const data = { ad_id: state.id, advertiser_id: state.advertiserId, budget_spark: fromCenti(state.budgetCenti), spent_spark: fromCenti(state.spentCenti), exhausted_at: now.toISOString() };
          return [{ type: 'AdUnitExhausted', data }];
        }
        const signature = command.witnessSignature;
        const witnessed = command.witnessVerified && signature !== null && !recent.some((c) => c.signature === signature);
        const share = command.operatorId !== null && command.nodeId !== null ? operatorShareMilli(cost, witnessed) / 1000 : 0;
        const createdAt = now.toISOString();
        const sealed = sealedHash([command.impressionId, state.id, command.type, command.userId, command.nodeId, command.placementId, command.regionId, command.witnessNodeId, signature, cost, createdAt]);
        return [
          {
            type: 'AdImpressionRecorded',
            data: {
              impression_id: command.impressionId,
              ad_id: state.id,
              advertiser_id: state.advertiserId,
              impression_type: command.type,
              user_id: command.userId,
              placement_id: command.placementId,
              node_id: command.nodeId,
              region_id: command.regionId,
              witness_node_id: command.witnessNodeId,
              witness_signature: signature,
              witnessed,
              sealed_hash: sealed,
              cost_spark: fromCenti(cost),
              spent_spark: fromCenti(state.spentCenti + cost),
              remaining_spark: fromCenti(state.budgetCenti - state.spentCenti - cost),
              operator_id: share > 0 ? command.operatorId : null,
              operator_share_spark: share,
              created_at: createdAt,
            },
          },
        ];
      }
      case 'complete': {
        if (state.status === 'none' || state.status === 'completed') throw new DomainError('not_found', AD_NOT_FOUND);
        if (state.advertiserId !== command.by && !command.asAdmin) throw new DomainError('not_found', AD_NOT_FOUND);
        return [
          {
            type: 'AdUnitCompleted',
            data: {
              ad_id: state.id,
              advertiser_id: state.advertiserId,
              budget_spark: fromCenti(state.budgetCenti),
              spent_spark: fromCenti(state.spentCenti),
              refunded_spark: fromCenti(state.budgetCenti - state.spentCenti),
              completed_by: command.by,
              completed_at: now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
