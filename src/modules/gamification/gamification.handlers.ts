/**
 * Command handlers of the gamification context. A rating decides on its own
 * stream (one per key), with the rater's weight taken from the rater's wallet
 * stream at that moment (src/aggregates/gamification/trust.ts); onboarding
 * decides on the user's stream. Wallet credits are the onboarding saga's.
 */
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { userDecider } from '../../aggregates/accounts/user';
import { userStreamId } from '../../aggregates/accounts/user.events';
import { walletDecider, walletStreamId } from '../../aggregates/contest/wallet';
import { ONBOARDING_STEPS, onboardingDecider, onboardingStreamId } from '../../aggregates/gamification/onboarding';
import { CANNOT_RATE_YOURSELF, ratingDecider, ratingId, ratingStreamId } from '../../aggregates/gamification/rating';
import { raterWeight } from '../../aggregates/gamification/trust';
import { DomainError } from '../../aggregates/shared/domain-error';
import { CommandExecutor } from '../common/command-executor';
import { CompleteOnboardingStep, DismissOnboarding, RateUser } from './gamification.commands';
import { nextStep, type OnboardingStepOutcome, type RatingView, ratingView } from './gamification.queries';

@CommandHandler(RateUser)
export class RateUserHandler implements ICommandHandler<RateUser> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: RateUser): Promise<RatingView> {
    if (payload.raterId === payload.ratedId) throw new DomainError('invalid', CANNOT_RATE_YOURSELF);
    if ((await this.executor.load(userDecider, userStreamId(payload.ratedId))).state.status === 'none') throw new DomainError('not_found', 'User not found');
    // the rater's signal now: recorded in the event with the weight it gives (no wallet: 0)
    const { state: wallet } = await this.executor.load(walletDecider, walletStreamId(payload.raterId));
    const raterSignal = wallet.reputation?.signal ?? 0;
    const id = ratingId(payload);
    const { state } = await this.executor.execute(ratingDecider, ratingStreamId(id), { kind: 'rate', ...payload, raterSignal, weight: raterWeight(raterSignal) }, context);
    if (state.status === 'none') throw new DomainError('internal', 'the rating was not recorded');
    return ratingView({
      _id: id,
      rater_id: payload.raterId,
      rated_id: payload.ratedId,
      context_type: payload.contextType,
      context_id: payload.contextId,
      dimension: payload.dimension,
      score: state.score,
      comment: state.comment,
      weight: state.weight,
      created_at: state.createdAt,
      updated_at: state.updatedAt,
    });
  }
}

@CommandHandler(CompleteOnboardingStep)
export class CompleteOnboardingStepHandler implements ICommandHandler<CompleteOnboardingStep> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: CompleteOnboardingStep): Promise<OnboardingStepOutcome> {
    const { events, state } = await this.executor.execute(onboardingDecider, onboardingStreamId(payload.userId), { kind: 'completeStep', ...payload }, context);
    if (events.length === 0) return { already_completed: true, step: payload.step };
    const rewards: Record<string, number> = {};
    for (const event of events) {
      if (event.type === 'OnboardingStepCompleted') rewards[event.data.reward_type] = (rewards[event.data.reward_type] ?? 0) + event.data.reward_amount;
      if (event.type === 'OnboardingCompleted') rewards[event.data.bonus_type] = (rewards[event.data.bonus_type] ?? 0) + event.data.bonus_amount;
    }
    return {
      step: payload.step,
      completed: true,
      rewards,
      all_complete: ONBOARDING_STEPS.every(({ key }) => state.completed.has(key)),
      next_step: nextStep(state.completed)?.key ?? null,
    };
  }
}

@CommandHandler(DismissOnboarding)
export class DismissOnboardingHandler implements ICommandHandler<DismissOnboarding> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: DismissOnboarding): Promise<true> {
    await this.executor.execute(onboardingDecider, onboardingStreamId(payload.userId), { kind: 'dismiss', userId: payload.userId }, context);
    return true;
  }
}
