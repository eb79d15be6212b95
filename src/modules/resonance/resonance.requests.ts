/** Bodies and query parameters of the wallet economy routes (social-routes §15), each with the JSON Schema of what it accepts. */
import { CURRENCIES, type Currency, MAX_BOOST_SPARK } from '../../aggregates/contest/wallet';
import { DomainError } from '../../aggregates/shared/domain-error';
import { objectBody } from '../common/body-fields';
import { LEADERBOARD_CURRENCIES, type LeaderboardCurrency } from './resonance.queries';

const TARGET_MAX = 100;
const DEFAULT_BOOST_SPARK = 10;

export const BOOST_BODY_SCHEMA = {
  type: 'object',
  required: ['target_type', 'target_id'],
  properties: {
    target_type: { type: 'string', minLength: 1, maxLength: TARGET_MAX, description: 'e.g. post; a boosted post’s boost_score grows by the multiplier' },
    target_id: { type: 'string', minLength: 1, maxLength: TARGET_MAX },
    spark_amount: { type: 'integer', minimum: 1, maximum: MAX_BOOST_SPARK, default: DEFAULT_BOOST_SPARK },
  },
};

export interface BoostRequest {
  targetType: string;
  targetId: string;
  spark: number;
}

const target = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return typeof value === 'string' && value.trim() ? value.trim() : null;
};

/** 400 for a body that is not a JSON object, `target_type and target_id are required`, then a spark_amount that is not a whole number from 1 to the maximum. */
export function boostRequest(raw: unknown): BoostRequest {
  const body = objectBody(raw);
  const targetType = target(body.target_type);
  const targetId = target(body.target_id);
  if (!targetType || !targetId) throw new DomainError('invalid', 'target_type and target_id are required');
  if ([...targetType].length > TARGET_MAX || [...targetId].length > TARGET_MAX) throw new DomainError('invalid', `target_type and target_id must be at most ${TARGET_MAX} characters`);
  const spark = body.spark_amount ?? DEFAULT_BOOST_SPARK;
  if (typeof spark !== 'number' || !Number.isInteger(spark) || spark < 1 || spark > MAX_BOOST_SPARK) {
    throw new DomainError('invalid', `spark_amount must be an integer from 1 to ${MAX_BOOST_SPARK}`);
  }
  return { targetType, targetId, spark };
}

function oneOfQuery<T extends string>(value: unknown, values: readonly T[], name: string): T | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) throw new DomainError('invalid', `${name} must be one of ${values.join(', ')}`);
  return value as T;
}

/** `?currency=` of the ledger: one of the balances, or all when absent. */
export const transactionCurrency = (value: unknown): Currency | null => oneOfQuery(value, CURRENCIES, 'currency');

/** `?currency=` of the leaderboard: pulse by default. */
export const leaderboardCurrency = (value: unknown): LeaderboardCurrency => oneOfQuery(value, LEADERBOARD_CURRENCIES, 'currency') ?? 'pulse';

/** `?region=`: a region id, or everyone when absent. */
export function regionQuery(value: unknown): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || value.length > TARGET_MAX) throw new DomainError('invalid', `region must be a string of at most ${TARGET_MAX} characters`);
  return value;
}
