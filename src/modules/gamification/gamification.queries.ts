/** Reads of the gamification context (social-routes §15): ratings, trust, onboarding progress. */
import { Inject, Injectable } from '@nestjs/common';
import type { RatingRecord } from '../../aggregates/gamification/rating';
import { ONBOARDING_STEPS, type OnboardingStep } from '../../aggregates/gamification/onboarding';
import { compositeTrust, DIMENSIONS, type Dimension, weightedMean } from '../../aggregates/gamification/trust';
import { DomainError } from '../../aggregates/shared/domain-error';
import { READ_STORE, type Filter, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { USERS, type UserDoc } from '../../projections/accounts/users.projection';
import { ONBOARDING, type OnboardingDoc } from '../../projections/gamification/onboarding.projection';
import { RATINGS, type RatingDoc, TRUST, type TrustDoc } from '../../projections/gamification/ratings.projection';
import { escapeHtml } from '../common/html-escape';
import type { Page } from '../common/paging';

/** A rating as the routes show it: `weight` is the rater's weight when the score was given, clamp(signal ÷ 10, 0.5, 3). */
export type RatingView = RatingRecord & { id: string };

export interface RatingSummary {
  dimensions: Record<Dimension, number>;
  composite_trust: number;
  total_ratings: number;
}

export interface TrustView {
  user_id: string;
  avg_skill: number;
  avg_usefulness: number;
  avg_reliability: number;
  avg_creativity: number;
  total_ratings_received: number;
  composite_trust: number;
}

export interface OnboardingProgress {
  user_id: string;
  steps_completed: string[];
  current_step: string | null;
  completed_at: string | null;
  tutorial_dismissed: boolean;
  total_steps: number;
  done_steps: number;
  steps: { key: string; title: string; completed: boolean; reward_type: string; reward_amount: number }[];
}

export type OnboardingStepOutcome =
  | { step: string; completed: true; rewards: Record<string, number>; all_complete: boolean; next_step: string | null }
  | { already_completed: true; step: string };

export interface StepSuggestion {
  step: string;
  title: string;
  reward_type: string;
  reward_amount: number;
}

/** The ratings of one context are few; this bounds the reply all the same. */
const CONTEXT_RATINGS = 200;

export function ratingView(doc: RatingDoc): RatingView {
  return {
    id: doc._id,
    rater_id: doc.rater_id,
    rated_id: doc.rated_id,
    context_type: escapeHtml(doc.context_type),
    context_id: escapeHtml(doc.context_id),
    dimension: doc.dimension,
    score: doc.score,
    comment: escapeHtml(doc.comment),
    weight: doc.weight,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

/** The first step not done yet, in the steps' order. */
export function nextStep(done: ReadonlySet<string>): OnboardingStep | undefined {
  return ONBOARDING_STEPS.find(({ key }) => !done.has(key));
}

function means(doc: TrustDoc | null): Record<Dimension, number> {
  const out = {} as Record<Dimension, number>;
  for (const d of DIMENSIONS) out[d] = weightedMean(doc ? { weighted: doc[`${d}_weighted`] ?? 0, weight: doc[`${d}_weight`] ?? 0 } : undefined);
  return out;
}

@Injectable()
export class GamificationQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  private trustDoc(userId: string): Promise<TrustDoc | null> {
    return this.store.collection<TrustDoc>(TRUST).findOne({ _id: String(userId) });
  }

  /** GET /ratings/{user_id}: zeros when unrated. */
  async summary(userId: string): Promise<RatingSummary> {
    const doc = await this.trustDoc(userId);
    const dimensions = means(doc);
    return { dimensions, composite_trust: compositeTrust(dimensions), total_ratings: doc?.total_ratings ?? 0 };
  }

  /** GET /trust/{user_id}: 404 `User not found` for a user the service does not know. */
  async trust(userId: string): Promise<TrustView> {
    const user = await this.store.collection<UserDoc>(USERS).findOne({ _id: String(userId) });
    if (!user) throw new DomainError('not_found', 'User not found');
    const { dimensions, composite_trust, total_ratings } = await this.summary(userId);
    return {
      user_id: user.id,
      avg_skill: dimensions.skill,
      avg_usefulness: dimensions.usefulness,
      avg_reliability: dimensions.reliability,
      avg_creativity: dimensions.creativity,
      total_ratings_received: total_ratings,
      composite_trust,
    };
  }

  /** Ratings matching `filter`, most recently given or revised first. */
  async ratings(filter: Filter, page: Page): Promise<{ items: RatingView[]; total: number }> {
    const collection = this.store.collection<RatingDoc>(RATINGS);
    const [docs, total] = await Promise.all([
      collection.find(filter, { sort: { updated_at: -1, _id: 1 }, skip: page.offset, limit: page.limit }),
      collection.countDocuments(filter),
    ]);
    return { items: docs.map(ratingView), total };
  }

  async ofContext(contextType: string, contextId: string): Promise<RatingView[]> {
    return (await this.ratings({ context_type: String(contextType), context_id: String(contextId) }, { offset: 0, limit: CONTEXT_RATINGS })).items;
  }

  private async onboardingDoc(userId: string): Promise<OnboardingDoc | null> {
    return this.store.collection<OnboardingDoc>(ONBOARDING).findOne({ _id: userId });
  }

  async progress(userId: string): Promise<OnboardingProgress> {
    const doc = await this.onboardingDoc(userId);
    const done = new Set(doc?.steps_completed ?? []);
    return {
      user_id: userId,
      steps_completed: [...done],
      current_step: nextStep(done)?.key ?? null,
      completed_at: doc?.completed_at ?? null,
      tutorial_dismissed: doc?.tutorial_dismissed ?? false,
      total_steps: ONBOARDING_STEPS.length,
      done_steps: ONBOARDING_STEPS.filter(({ key }) => done.has(key)).length,
      steps: ONBOARDING_STEPS.map((step) => ({ key: step.key, title: step.title, completed: done.has(step.key), reward_type: step.reward_type, reward_amount: step.reward_amount })),
    };
  }

  /** The next step to suggest; none once every step is done or the tutorial was dismissed. */
  async suggestion(userId: string): Promise<StepSuggestion | null> {
    const doc = await this.onboardingDoc(userId);
    if (doc?.tutorial_dismissed) return null;
    const step = nextStep(new Set(doc?.steps_completed ?? []));
    return step ? { step: step.key, title: step.title, reward_type: step.reward_type, reward_amount: step.reward_amount } : null;
  }
}
