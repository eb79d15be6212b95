/** Commands of the gamification context (social-routes §15): ratings and onboarding. */
import type { RatingKey } from '../../aggregates/gamification/rating';
import { DomainCommand } from '../common/domain-command';
import type { OnboardingStepOutcome, RatingView } from './gamification.queries';

/** Rates `ratedId` as `raterId`; a repeat of the key revises the rating. The rater's weight is read from their wallet now. */
export class RateUser extends DomainCommand<RatingKey & { score: number; comment: string | null }, RatingView> {}

export class CompleteOnboardingStep extends DomainCommand<{ userId: string; step: string }, OnboardingStepOutcome> {}

export class DismissOnboarding extends DomainCommand<{ userId: string }, true> {}
