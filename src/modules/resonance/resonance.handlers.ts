import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { walletDecider, walletStreamId } from '../../aggregates/contest/wallet';
import { CommandExecutor } from '../common/command-executor';
import { randomHex } from '../common/random-ids';
import { type BoostView, BuyBoost, type CheckinOutcome, DailyCheckin, OpenWallet } from './resonance.commands';

/** Spends on one wallet may come all at once: each conflict across processes is decided again on the new balance. */
const SPEND_RETRIES = 50;

@CommandHandler(OpenWallet)
export class OpenWalletHandler implements ICommandHandler<OpenWallet> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: OpenWallet): Promise<void> {
    await this.executor.execute(walletDecider, walletStreamId(payload.userId), { kind: 'open', ...payload }, context, { maxRetries: SPEND_RETRIES });
  }
}

@CommandHandler(BuyBoost)
export class BuyBoostHandler implements ICommandHandler<BuyBoost> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: BuyBoost): Promise<BoostView> {
    const { events } = await this.executor.execute(
      walletDecider,
      walletStreamId(payload.userId),
      { kind: 'boost', ...payload, boostId: `bst_${randomHex(12)}` },
      context,
      { maxRetries: SPEND_RETRIES },
    );
    const bought = events.find((e) => e.type === 'BoostPurchased');
    if (!bought) throw new Error('a boost records BoostPurchased');
    const { boost_id: id, ...rest } = bought.data;
    return { id, ...rest };
  }
}

@CommandHandler(DailyCheckin)
export class DailyCheckinHandler implements ICommandHandler<DailyCheckin> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: DailyCheckin): Promise<CheckinOutcome> {
    const { events, state } = await this.executor.execute(walletDecider, walletStreamId(payload.userId), { kind: 'checkin', ...payload }, context, {
      maxRetries: SPEND_RETRIES,
    });
    const checked = events.find((e) => e.type === 'DailyCheckedIn');
    if (!checked) return { streak_days: state.streak.days, already_checked_in: true };
    const { streak_days, streak_best, spark_bonus, xp_bonus } = checked.data;
    return { streak_days, streak_best, spark_bonus, xp_bonus };
  }
}

export const RESONANCE_COMMAND_HANDLERS = [OpenWalletHandler, BuyBoostHandler, DailyCheckinHandler];
