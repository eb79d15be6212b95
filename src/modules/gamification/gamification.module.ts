/** The social platform's gamification (social-routes §15): ratings, trust, onboarding, achievements, challenges, seasons and collectibles. The wallet itself is the contest context's. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { AchievementsController, ChallengesController, CollectiblesController, SeasonsController } from './achievements.controller';
import {
  ClaimChallengeHandler,
  CountAchievementProgressHandler,
  CreateChallengeHandler,
  ObserveAchievementStatHandler,
  ObserveLevelHandler,
  ProgressChallengeHandler,
  ToggleAchievementShowcaseHandler,
} from './achievements.handlers';
import { AchievementsQueries } from './achievements.queries';
import { CompleteOnboardingStepHandler, DismissOnboardingHandler, RateUserHandler } from './gamification.handlers';
import { GamificationQueries } from './gamification.queries';
import { OnboardingController } from './onboarding.controller';
import { RatingsController, TrustController } from './ratings.controller';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [RatingsController, TrustController, OnboardingController, AchievementsController, ChallengesController, SeasonsController, CollectiblesController],
  providers: [
    GamificationQueries,
    RateUserHandler,
    CompleteOnboardingStepHandler,
    DismissOnboardingHandler,
    AchievementsQueries,
    CountAchievementProgressHandler,
    ObserveAchievementStatHandler,
    ObserveLevelHandler,
    ToggleAchievementShowcaseHandler,
    CreateChallengeHandler,
    ProgressChallengeHandler,
    ClaimChallengeHandler,
  ],
})
export class GamificationModule {}
