/** Reply schemas of the wallet economy routes (social-routes §15) for the OpenAPI document. */
import { bool, int, list, num, obj, oneOf, orNull, str, type JsonSchema } from '../common/openapi';
import { CURRENCIES } from '../../aggregates/contest/wallet';
import { LEVEL_TITLES } from '../../aggregates/contest/levels';

export const WALLET = obj({
  user_id: str(),
  pulse: num(),
  spark: num({ description: 'spendable; never negative' }),
  spark_lifetime: num({ description: 'all spark ever earned' }),
  signal: num(),
  level: int({ minimum: 1 }),
  level_title: oneOf(LEVEL_TITLES.map((t) => t.title)),
  xp: num(),
  xp_next_level: num({ description: 'total XP at which the next level is reached' }),
  streak_days: int(),
  streak_best: int(),
  last_active_date: orNull(str({ format: 'date', description: 'UTC day of the last check-in' })),
  season_pulse: num({ description: 'pulse earned' }),
  season_spark: num({ description: "the contest's spark (its standings)" }),
});

const extend = (base: JsonSchema, properties: Record<string, JsonSchema>): JsonSchema => ({
  ...base,
  properties: { ...(base.properties as object), ...properties },
  required: [...(base.required as string[]), ...Object.keys(properties)],
});

export const TRANSACTION = obj({
  id: str(),
  user_id: str(),
  currency: oneOf(CURRENCIES),
  amount: num({ description: 'negative for a spend' }),
  balance_after: num(),
  source_type: str(),
  source_id: str(),
  description: str(),
  created_at: str({ format: 'date-time' }),
});

export const LEADERBOARD_ROW = extend(WALLET, {
  rank: int({ minimum: 1 }),
  username: orNull(str()),
  display_name: orNull(str({ description: 'HTML-escaped' })),
  avatar_url: orNull(str()),
  user_type: orNull(str()),
});

/** `{success: true, data: [row], meta}`: an offset page (social-routes §0.1). */
export const LEADERBOARD_PAGE = obj({
  success: { const: true },
  data: list(LEADERBOARD_ROW),
  meta: obj({ total: int(), limit: int(), offset: int(), has_more: bool() }),
});

export const BOOST = obj({
  id: str(),
  user_id: str(),
  target_type: str(),
  target_id: str(),
  spark_spent: int(),
  boost_multiplier: num({ minimum: 1, maximum: 2 }),
  expires_at: str({ format: 'date-time' }),
  created_at: str({ format: 'date-time' }),
});

export const LEVEL_INFO = obj({
  level: int(),
  title: str(),
  xp: num(),
  xp_next: num(),
  progress_pct: num({ minimum: 0, maximum: 100 }),
  all_titles: list(obj({ level: int(), title: str() })),
});

export const STREAK = obj({ streak_days: int(), streak_best: int(), last_active_date: orNull(str({ format: 'date' })) });

export const CHECKIN = obj(
  { streak_days: int(), streak_best: int(), spark_bonus: int(), xp_bonus: int(), already_checked_in: { const: true } },
  ['streak_best', 'spark_bonus', 'xp_bonus', 'already_checked_in'],
  { description: 'the bonus, or `{streak_days, already_checked_in: true}` on a second check-in the same UTC day' },
);

export const BREAKDOWN = extend(WALLET, {
  sources: { type: 'object', additionalProperties: obj({ count: int(), total: num() }), description: 'per source type: ledger rows and their sum' },
});
