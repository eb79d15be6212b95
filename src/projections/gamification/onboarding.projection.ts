/** `onboarding`: one document per user who began (social-routes §15): the steps done in the order done, when all were, whether the tutorial was dismissed. */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const ONBOARDING = 'onboarding';

export interface OnboardingDoc extends Doc {
  steps_completed: string[];
  completed_at: string | null;
  tutorial_dismissed: boolean;
}

export const onboardingProjection = defineProjection({
  name: 'onboarding',
  version: 1,
  collections: [ONBOARDING],
  on: {
    OnboardingStepCompleted: (event, writer) =>
      applyOnce(writer, ONBOARDING, event.data.user_id, event, {
        $push: { steps_completed: event.data.step },
        $setOnInsert: { completed_at: null, tutorial_dismissed: false },
      }),
    OnboardingCompleted: (event, writer) =>
      applyOnce(writer, ONBOARDING, event.data.user_id, event, { $set: { completed_at: event.data.completed_at }, $setOnInsert: { steps_completed: [], tutorial_dismissed: false } }),
    OnboardingDismissed: (event, writer) =>
      applyOnce(writer, ONBOARDING, event.data.user_id, event, { $set: { tutorial_dismissed: true }, $setOnInsert: { steps_completed: [], completed_at: null } }),
  },
});
