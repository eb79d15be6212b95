/** Reply schemas of the gamification routes (social-routes §15) for the OpenAPI document. */
import { ONBOARDING_STEPS } from '../../aggregates/gamification/onboarding';
import { DIMENSIONS } from '../../aggregates/gamification/trust';
import { bool, int, list, num, obj, oneOf, orNull, str } from '../common/openapi';

const REWARD_TYPES = ['pulse', 'spark', 'signal', 'xp'];
const STEP_KEYS = ONBOARDING_STEPS.map((step) => step.key);

export const RATING = obj({
  id: str(),
  rater_id: str(),
  rated_id: str(),
  context_type: str({ description: 'HTML-escaped' }),
  context_id: str({ description: 'HTML-escaped' }),
  dimension: oneOf(DIMENSIONS),
  score: int({ minimum: 1, maximum: 5 }),
  comment: orNull(str({ description: 'HTML-escaped' })),
  weight: num({ minimum: 0.5, maximum: 3, description: "the rater's weight when the score was given: clamp(signal ÷ 10, 0.5, 3)" }),
  created_at: str({ format: 'date-time' }),
  updated_at: str({ format: 'date-time' }),
});

const dimensionMeans = Object.fromEntries(DIMENSIONS.map((d) => [d, num({ minimum: 0, maximum: 5 })]));

export const RATING_SUMMARY = obj({ dimensions: obj(dimensionMeans), composite_trust: num(), total_ratings: int() });

export const TRUST_VIEW = obj({
  user_id: str(),
  avg_skill: num(),
  avg_usefulness: num(),
  avg_reliability: num(),
  avg_creativity: num(),
  total_ratings_received: int(),
  composite_trust: num(),
});

export const ONBOARDING_PROGRESS = obj({
  user_id: str(),
  steps_completed: list(oneOf(STEP_KEYS), { description: 'in the order they were completed' }),
  current_step: orNull(oneOf(STEP_KEYS)),
  completed_at: orNull(str({ format: 'date-time' })),
  tutorial_dismissed: bool(),
  total_steps: int(),
  done_steps: int(),
  steps: list(obj({ key: oneOf(STEP_KEYS), title: str(), completed: bool(), reward_type: oneOf(REWARD_TYPES), reward_amount: num() })),
});

export const STEP_OUTCOME = {
  anyOf: [
    obj({
      step: oneOf(STEP_KEYS),
      completed: { const: true },
      rewards: obj({}, [], { additionalProperties: num(), description: 'currency → amount credited: the step’s reward, plus the 50 spark bonus with the last step' }),
      all_complete: bool(),
      next_step: orNull(oneOf(STEP_KEYS)),
    }),
    obj({ already_completed: { const: true }, step: str() }),
    obj({ error: { const: 'Unknown step' } }),
  ],
};

export const STEP_SUGGESTION = obj({ step: oneOf(STEP_KEYS), title: str(), reward_type: oneOf(REWARD_TYPES), reward_amount: num() });
