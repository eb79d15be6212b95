/** The social platform's gamification (social-routes §15): ratings, trust and onboarding. The wallet itself is the contest context's. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { CompleteOnboardingStepHandler, DismissOnboardingHandler, RateUserHandler } from './gamification.handlers';
import { GamificationQueries } from './gamification.queries';
import { OnboardingController } from './onboarding.controller';
import { RatingsController, TrustController } from './ratings.controller';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [RatingsController, TrustController, OnboardingController],
  providers: [GamificationQueries, RateUserHandler, CompleteOnboardingStepHandler, DismissOnboardingHandler],
})
export class GamificationModule {}
