/**
 * A user's wallet (stream `wallet-<userId>`): the contest's spark and the
 * social platform's reputation (social-routes §15, the "resonance" routes).
 *
 * - `season_spark` is the sum of the contest's awards (SparkAwarded).
 * - The balances pulse, spark, signal and XP: RewardGranted (the action
 *   table), SparkAwarded (contest spark is spendable spark too), the daily
 *   check-in's bonus (DailyCheckedIn) credit them; a boost (BoostPurchased)
 *   spends spark. `walletEntries` says what each event does to which balance,
 *   for this decider and the ledger read model alike, so the two cannot differ.
 * - Balances never go negative: a boost is refused unless the spark covers it,
 *   decided on the one stream of the wallet, so concurrent spends never overdraw.
 * - Every credit names its source (type and id); the wallet remembers the
 *   sources it paid and ignores a repeat, so a saga that sees an event twice
 *   (redelivery, restart, replay) pays once.
 * - The check-in's day is the UTC day of the command's `now`.
 * - Holds (social-routes §16, ads): SparkHeld takes an amount out of the
 *   spendable spark for a purpose (an ad's budget), refused unless the spark
 *   covers it; SparkHoldReleased gives the unspent part back, once. What was
 *   held and not released was spent (the ad unit's stream says on what).
 * - Ad revenue shares (§16): a node operator's share of an ad charge is
 *   accrued here in milli-spark; whole spark are paid out as soon as the
 *   accrued amount reaches 1, the fraction waits for the next share, so the
 *   operator is paid every share to the milli-spark in the end.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { CommandInput, Decider } from '../shared/decider';
import { JOIN_AWARD, TRACKS, type Track, type TrackPoints } from './scoring';

/**
 * Reputation rewards of the social platform (social-routes §21.3, the action
 * table in src/sagas/social-rewards.saga.ts): pulse, spark, signal and XP for
 * an action, paid once per source like the contest's awards. They do not
 * count towards season_spark (the contest's standings).
 */
export interface RewardGranted {
  type: 'RewardGranted';
  data: { user_id: string; action: string; pulse: number; spark: number; signal: number; xp: number; source_type: string; source_id: string; granted_at: string };
}

/** The wallet exists from here on (GET /resonance/wallet creates it on first read). */
export interface WalletOpened {
  type: 'WalletOpened';
  data: { user_id: string; opened_at: string };
}

/** Spark spent on boosting a target: its multiplier min(1 + 0.01 × spark, 2) lasts `spark_spent` hours. */
export interface BoostPurchased {
  type: 'BoostPurchased';
  data: {
    boost_id: string;
    user_id: string;
    target_type: string;
    target_id: string;
    spark_spent: number;
    boost_multiplier: number;
    expires_at: string;
    created_at: string;
  };
}

/** The first check-in of a UTC day: the streak and its bonus (spark = streak day, XP = 5 × streak day). */
export interface DailyCheckedIn {
  type: 'DailyCheckedIn';
  data: { user_id: string; day: string; streak_days: number; streak_best: number; spark_bonus: number; xp_bonus: number; checked_in_at: string };
}

/** Spark taken out of the spendable balance and held for a purpose (an ad's budget, `hold_id` the ad id). */
export interface SparkHeld {
  type: 'SparkHeld';
  data: { user_id: string; hold_id: string; purpose: HoldPurpose; amount: number; held_at: string };
}

/** The unspent part of a hold given back (`released`, possibly with a fraction); the rest of `held` was spent. The hold is closed. */
export interface SparkHoldReleased {
  type: 'SparkHoldReleased';
  data: { user_id: string; hold_id: string; purpose: HoldPurpose; held: number; released: number; released_at: string };
}

/**
 * A node operator's share of an ad charge (`share`, spark with its fraction)
 * accrued; `paid` whole spark were credited (0 while the accrued amount is
 * under 1), `pending` is what stays accrued after.
 */
export interface AdRevenueShared {
  type: 'AdRevenueShared';
  data: { user_id: string; impression_id: string; ad_id: string; node_id: string; share: number; paid: number; pending: number; shared_at: string };
}

export type WalletEvent = SparkAwarded | RewardGranted | WalletOpened | BoostPurchased | DailyCheckedIn | SparkHeld | SparkHoldReleased | AdRevenueShared;

export const HOLD_PURPOSES = ['ad_budget'] as const;
export type HoldPurpose = (typeof HOLD_PURPOSES)[number];

export type SparkAwarded = {
  type: 'SparkAwarded';
  data: {
    user_id: string;
    /** added to season_spark: the sum of `tracks` */
    amount: number;
    /** points per contest track */
    tracks: TrackPoints;
    source_type: string;
    source_id: string;
    reason: string;
    awarded_at: string;
  };
};

export interface WalletState {
  /** the stream id names the user; false until its first event */
  opened: boolean;
  seasonSpark: number;
  /** `<source_type>/<source_id>` of every award recorded */
  paidSources: ReadonlySet<string>;
  /** the balances */
  reputation: Reputation;
  streak: Streak;
  /** open holds by hold id */
  holds: ReadonlyMap<string, { amount: number; purpose: HoldPurpose }>;
  /** holds released (closed): a second release is a no-op */
  releasedHolds: ReadonlySet<string>;
  /** ad revenue share accrued and not yet paid, in milli-spark (under 1000) */
  adSharePendingMilli: number;
}

export interface Streak {
  days: number;
  best: number;
  /** UTC day (YYYY-MM-DD) of the last check-in */
  lastDay: string | null;
}

export interface Reputation {
  pulse: number;
  spark: number;
  signal: number;
  xp: number;
}

export type RewardAmounts = Partial<Reputation>;

export type WalletCommand =
  | {
      kind: 'award';
      userId: string;
      tracks: TrackPoints;
      sourceType: string;
      sourceId: string;
      reason: string;
    }
  | { kind: 'reward'; userId: string; action: string; amounts: RewardAmounts; sourceType: string; sourceId: string }
  | { kind: 'open'; userId: string }
  | { kind: 'boost'; userId: string; boostId: string; targetType: string; targetId: string; spark: number }
  | { kind: 'checkin'; userId: string }
  | { kind: 'hold'; userId: string; holdId: string; purpose: HoldPurpose; amount: number }
  | { kind: 'release'; userId: string; holdId: string; amount: number }
  | { kind: 'shareAdRevenue'; userId: string; impressionId: string; adId: string; nodeId: string; shareMilli: number };

export const CURRENCIES = ['pulse', 'spark', 'signal', 'xp'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** One balance change of an event: a row of the ledger. */
export interface WalletEntry {
  currency: Currency;
  /** negative for a spend */
  amount: number;
  source_type: string;
  source_id: string;
  description: string;
}

export const BOOST_SOURCE = 'boost';
export const CHECKIN_SOURCE = 'daily_checkin';
/** The most spark one boost may spend (its multiplier stops growing at 100). */
export const MAX_BOOST_SPARK = 10_000;
export const insufficientSpark = (have: number): string => `Insufficient Spark (have ${have})`;
/** The refusal of a hold the spark does not cover (social-routes §16 gives no balance). */
export const INSUFFICIENT_SPARK = 'Insufficient Spark';
export const AD_SHARE_SOURCE = 'ad_revenue_share';
/** The most one hold may take. */
export const MAX_HOLD_SPARK = 1_000_000;

/** min(1 + 0.01 × spark, 2.0), in hundredths so 1 + 0.07 is 1.07. */
export function boostMultiplier(spark: number): number {
  return Math.min((100 + spark) / 100, 2);
}

/** The UTC day of an instant, YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** What an event does to the balances, in the order of CURRENCIES; zero amounts are left out. */
export function walletEntries(event: WalletEvent): WalletEntry[] {
  const rows = (amounts: Partial<Record<Currency, number>>, source_type: string, source_id: string, description: string): WalletEntry[] =>
    CURRENCIES.filter((c) => (amounts[c] ?? 0) !== 0).map((currency) => ({ currency, amount: amounts[currency]!, source_type, source_id, description }));
  switch (event.type) {
    case 'SparkAwarded':
      return rows({ spark: event.data.amount }, event.data.source_type, event.data.source_id, event.data.reason);
    case 'RewardGranted': {
      const d = event.data;
      return rows({ pulse: d.pulse, spark: d.spark, signal: d.signal, xp: d.xp }, d.source_type, d.source_id, d.action);
    }
    case 'BoostPurchased': {
      const d = event.data;
      return rows({ spark: -d.spark_spent }, BOOST_SOURCE, d.boost_id, `Boost ${d.target_type} ${d.target_id}`);
    }
    case 'DailyCheckedIn': {
      const d = event.data;
      return rows({ spark: d.spark_bonus, xp: d.xp_bonus }, CHECKIN_SOURCE, d.day, `Daily check-in (day ${d.streak_days})`);
    }
    case 'SparkHeld': {
      const d = event.data;
      return rows({ spark: -d.amount }, d.purpose, d.hold_id, `Held for ${d.purpose} ${d.hold_id}`);
    }
    case 'SparkHoldReleased': {
      const d = event.data;
      return rows({ spark: d.released }, d.purpose, d.hold_id, `Released from ${d.purpose} ${d.hold_id} (${roundSpark(d.held - d.released)} spent)`);
    }
    case 'AdRevenueShared': {
      const d = event.data;
      return rows({ spark: d.paid }, AD_SHARE_SOURCE, d.impression_id, `Ad revenue share (node ${d.node_id})`);
    }
    case 'WalletOpened':
      return [];
    default:
      return assertNever(event);
  }
}

/** A balance to the millionth: spark may carry a fraction (a refunded ad budget), and sums of fractions must not drift. */
export function roundSpark(amount: number): number {
  return Math.round(amount * 1e6) / 1e6;
}

const ZERO: Reputation = { pulse: 0, spark: 0, signal: 0, xp: 0 };

function credited(balances: Reputation, entries: readonly WalletEntry[]): Reputation {
  const next = { ...balances };
  for (const e of entries) next[e.currency] = roundSpark(next[e.currency] + e.amount);
  return next;
}

export function walletStreamId(userId: string): string {
  return `wallet-${userId}`;
}

/** The award for joining the contest: 1 spark on the joined track; its source is the user, so it is paid once. */
export function joinAward(userId: string, track: Track): CommandInput<WalletCommand, 'award'> {
  return { userId, tracks: { [track]: JOIN_AWARD.amount }, sourceType: JOIN_AWARD.sourceType, sourceId: userId, reason: JOIN_AWARD.reason };
}

export function sourceKey(sourceType: string, sourceId: string): string {
  return `${sourceType}/${sourceId}`;
}

export const walletDecider: Decider<WalletState, WalletCommand, WalletEvent> = {
  initialState: {
    opened: false,
    seasonSpark: 0,
    paidSources: new Set(),
    reputation: ZERO,
    streak: { days: 0, best: 0, lastDay: null },
    holds: new Map(),
    releasedHolds: new Set(),
    adSharePendingMilli: 0,
  },
  evolve(state, event) {
    const next = { ...state, opened: true, reputation: credited(state.reputation, walletEntries(event)) };
    switch (event.type) {
      case 'SparkAwarded': {
        const paid = new Set(state.paidSources);
        paid.add(sourceKey(event.data.source_type, event.data.source_id));
        return { ...next, seasonSpark: state.seasonSpark + event.data.amount, paidSources: paid };
      }
      case 'RewardGranted': {
        const paid = new Set(state.paidSources);
        paid.add(sourceKey(event.data.source_type, event.data.source_id));
        return { ...next, paidSources: paid };
      }
      case 'DailyCheckedIn':
        return { ...next, streak: { days: event.data.streak_days, best: event.data.streak_best, lastDay: event.data.day } };
      case 'SparkHeld': {
        const holds = new Map(state.holds);
        holds.set(event.data.hold_id, { amount: event.data.amount, purpose: event.data.purpose });
        return { ...next, holds };
      }
      case 'SparkHoldReleased': {
        const holds = new Map(state.holds);
        holds.delete(event.data.hold_id);
        const released = new Set(state.releasedHolds);
        released.add(event.data.hold_id);
        return { ...next, holds, releasedHolds: released };
      }
      case 'AdRevenueShared': {
        const paid = new Set(state.paidSources);
        paid.add(sourceKey(AD_SHARE_SOURCE, event.data.impression_id));
        return { ...next, paidSources: paid, adSharePendingMilli: Math.round(event.data.pending * 1000) };
      }
      case 'BoostPurchased':
      case 'WalletOpened':
        return next;
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'award': {
        if (!command.sourceType || !command.sourceId) throw new DomainError('invalid', 'an award needs a source');
        if (state.paidSources.has(sourceKey(command.sourceType, command.sourceId))) return [];
        const tracks: TrackPoints = {};
        let amount = 0;
        for (const track of Object.keys(command.tracks) as Track[]) {
          const points = command.tracks[track];
          if (!TRACKS.includes(track)) throw new DomainError('invalid', `unknown track ${String(track)}`);
          if (points === undefined) continue;
          if (!Number.isInteger(points) || points <= 0) throw new DomainError('invalid', 'award points must be positive integers');
          tracks[track] = points;
          amount += points;
        }
        if (amount === 0) throw new DomainError('invalid', 'an award must be positive');
        return [
          {
            type: 'SparkAwarded',
            data: {
              user_id: command.userId,
              amount,
              tracks,
              source_type: command.sourceType,
              source_id: command.sourceId,
              reason: command.reason,
              awarded_at: now.toISOString(),
            },
          },
        ];
      }
      case 'reward': {
        if (!command.sourceType || !command.sourceId) throw new DomainError('invalid', 'a reward needs a source');
        if (state.paidSources.has(sourceKey(command.sourceType, command.sourceId))) return [];
        const { pulse = 0, spark = 0, signal = 0, xp = 0 } = command.amounts;
        if ([pulse, spark, signal, xp].some((n) => !Number.isFinite(n) || n < 0)) throw new DomainError('invalid', 'reward amounts must be non-negative numbers');
        if (pulse + spark + signal + xp === 0) return [];
        return [
          {
            type: 'RewardGranted',
            data: { user_id: command.userId, action: command.action, pulse, spark, signal, xp, source_type: command.sourceType, source_id: command.sourceId, granted_at: now.toISOString() },
          },
        ];
      }
      case 'open':
        return state.opened ? [] : [{ type: 'WalletOpened', data: { user_id: command.userId, opened_at: now.toISOString() } }];
      case 'boost': {
        const { spark } = command;
        if (!command.targetType || !command.targetId) throw new DomainError('invalid', 'target_type and target_id are required');
        if (!Number.isInteger(spark) || spark < 1 || spark > MAX_BOOST_SPARK) throw new DomainError('invalid', `spark_amount must be an integer from 1 to ${MAX_BOOST_SPARK}`);
        if (state.reputation.spark < spark) throw new DomainError('invalid', insufficientSpark(state.reputation.spark));
        return [
          {
            type: 'BoostPurchased',
            data: {
              boost_id: command.boostId,
              user_id: command.userId,
              target_type: command.targetType,
              target_id: command.targetId,
              spark_spent: spark,
              boost_multiplier: boostMultiplier(spark),
              expires_at: new Date(now.getTime() + spark * 3_600_000).toISOString(),
              created_at: now.toISOString(),
            },
          },
        ];
      }
      case 'checkin': {
        const day = utcDay(now);
        const { streak } = state;
        if (streak.lastDay === day) return [];
        const yesterday = utcDay(new Date(now.getTime() - 86_400_000));
        const days = streak.lastDay === yesterday ? streak.days + 1 : 1;
        return [
          {
            type: 'DailyCheckedIn',
            data: {
              user_id: command.userId,
              day,
              streak_days: days,
              streak_best: Math.max(streak.best, days),
              spark_bonus: days,
              xp_bonus: 5 * days,
              checked_in_at: now.toISOString(),
            },
          },
        ];
      }
      case 'hold': {
        const { amount, holdId } = command;
        if (!holdId) throw new DomainError('invalid', 'a hold needs an id');
        if (state.holds.has(holdId) || state.releasedHolds.has(holdId)) return [];
        if (!Number.isInteger(amount) || amount < 1 || amount > MAX_HOLD_SPARK) throw new DomainError('invalid', `a hold must be an integer from 1 to ${MAX_HOLD_SPARK}`);
        if (state.reputation.spark < amount) throw new DomainError('invalid', INSUFFICIENT_SPARK);
        return [{ type: 'SparkHeld', data: { user_id: command.userId, hold_id: holdId, purpose: command.purpose, amount, held_at: now.toISOString() } }];
      }
      case 'release': {
        if (state.releasedHolds.has(command.holdId)) return [];
        const hold = state.holds.get(command.holdId);
        if (hold === undefined) throw new DomainError('not_found', `no hold ${command.holdId}`);
        const held = hold.amount;
        const released = roundSpark(command.amount);
        if (!Number.isFinite(released) || released < 0 || released > held) throw new DomainError('invalid', `a release must be from 0 to the ${held} held`);
        return [
          {
            type: 'SparkHoldReleased',
            data: { user_id: command.userId, hold_id: command.holdId, purpose: hold.purpose, held, released, released_at: now.toISOString() },
          },
        ];
      }
      case 'shareAdRevenue': {
        const { shareMilli } = command;
        if (state.paidSources.has(sourceKey(AD_SHARE_SOURCE, command.impressionId))) return [];
        if (!Number.isSafeInteger(shareMilli) || shareMilli <= 0) throw new DomainError('invalid', 'an ad revenue share must be a positive number of milli-spark');
        const accrued = state.adSharePendingMilli + shareMilli;
        const paid = Math.floor(accrued / 1000);
        return [
          {
            type: 'AdRevenueShared',
            data: {
              user_id: command.userId,
              impression_id: command.impressionId,
              ad_id: command.adId,
              node_id: command.nodeId,
              share: shareMilli / 1000,
              paid,
              pending: (accrued - paid * 1000) / 1000,
              shared_at: now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
