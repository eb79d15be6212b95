/** The commands of the wallet economy (social-routes §15): all decided on the user's wallet stream. */
import type { CommandInput } from '../../aggregates/shared/decider';
import type { WalletCommand } from '../../aggregates/contest/wallet';
import type { BoostRecord } from '../../projections/resonance/wallets.projection';
import { DomainCommand } from '../common/domain-command';

export type BoostView = BoostRecord;

export type CheckinOutcome =
  | { streak_days: number; streak_best: number; spark_bonus: number; xp_bonus: number }
  | { streak_days: number; already_checked_in: true };

/** Creates the user's wallet unless it exists (GET /resonance/wallet: created on first read). */
export class OpenWallet extends DomainCommand<CommandInput<WalletCommand, 'open'>, void> {}

/** Spends spark on a boost of a target; 400 `Insufficient Spark (have N)` when the balance does not cover it. */
export class BuyBoost extends DomainCommand<Omit<CommandInput<WalletCommand, 'boost'>, 'boostId'>, BoostView> {}

/** The day's check-in: the streak and its bonus, once per UTC day. */
export class DailyCheckin extends DomainCommand<CommandInput<WalletCommand, 'checkin'>, CheckinOutcome> {}
