/**
 * A user's onboarding (social-routes §15): eight steps, each completed once,
 * and a tutorial the user may dismiss. One stream per user
 * (`onboarding-<userId>`): completing the last step records
 * `OnboardingCompleted` once, however many requests race for it, and the
 * rewards saga pays from these events through the wallet's once-per-source
 * credit (src/sagas/onboarding.saga.ts).
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export type RewardType = 'pulse' | 'spark' | 'signal' | 'xp';

export interface OnboardingStep {
  key: string;
  title: string;
  reward_type: RewardType;
  reward_amount: number;
}

/** The steps in their order, each with its reward (docs/api.md, "Onboarding"). */
export const ONBOARDING_STEPS = [
  { key: 'welcome', title: 'Welcome aboard', reward_type: 'xp', reward_amount: 10 },
  { key: 'first_follow', title: 'Follow someone', reward_type: 'pulse', reward_amount: 5 },
  { key: 'join_community', title: 'Join a community', reward_type: 'pulse', reward_amount: 5 },
  { key: 'first_vote', title: 'Cast your first vote', reward_type: 'xp', reward_amount: 10 },
  { key: 'first_comment', title: 'Write your first comment', reward_type: 'spark', reward_amount: 5 },
  { key: 'first_post', title: 'Publish your first post', reward_type: 'spark', reward_amount: 10 },
  { key: 'explore_agents', title: 'Explore the agents', reward_type: 'xp', reward_amount: 15 },
  { key: 'invite_friends', title: 'Invite a friend', reward_type: 'spark', reward_amount: 10 },
] as const satisfies readonly OnboardingStep[];

export type StepKey = (typeof ONBOARDING_STEPS)[number]['key'];

/** Paid once when the last step is completed. */
export const COMPLETION_BONUS = { reward_type: 'spark', reward_amount: 50 } as const satisfies Pick<OnboardingStep, 'reward_type' | 'reward_amount'>;

export const UNKNOWN_STEP = 'Unknown step';

export function onboardingStep(key: string): OnboardingStep | undefined {
  return ONBOARDING_STEPS.find((step) => step.key === key);
}

export function onboardingStreamId(userId: string): string {
  return `onboarding-${userId}`;
}

export type OnboardingEvent =
  | { type: 'OnboardingStepCompleted'; data: { user_id: string; step: StepKey; reward_type: RewardType; reward_amount: number; completed_at: string } }
  | { type: 'OnboardingCompleted'; data: { user_id: string; bonus_type: RewardType; bonus_amount: number; completed_at: string } }
  | { type: 'OnboardingDismissed'; data: { user_id: string; dismissed_at: string } };

export interface OnboardingState {
  completed: ReadonlySet<string>;
  completedAt: string | null;
  dismissed: boolean;
}

export type OnboardingCommand = { kind: 'completeStep'; userId: string; step: string } | { kind: 'dismiss'; userId: string };

export const onboardingDecider: Decider<OnboardingState, OnboardingCommand, OnboardingEvent> = {
  initialState: { completed: new Set(), completedAt: null, dismissed: false },
  evolve(state, event) {
    switch (event.type) {
      case 'OnboardingStepCompleted': {
        const completed = new Set(state.completed);
        completed.add(event.data.step);
        return { ...state, completed };
      }
      case 'OnboardingCompleted':
        return { ...state, completedAt: event.data.completed_at };
      case 'OnboardingDismissed':
        return { ...state, dismissed: true };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'completeStep': {
        const step = onboardingStep(command.step);
        if (!step) throw new DomainError('invalid', UNKNOWN_STEP);
        if (state.completed.has(step.key)) return [];
        const events: OnboardingEvent[] = [
          {
            type: 'OnboardingStepCompleted',
            data: { user_id: command.userId, step: step.key as StepKey, reward_type: step.reward_type, reward_amount: step.reward_amount, completed_at: at },
          },
        ];
        const allDone = ONBOARDING_STEPS.every(({ key }) => key === step.key || state.completed.has(key));
        if (allDone && state.completedAt === null) {
          events.push({
            type: 'OnboardingCompleted',
            data: { user_id: command.userId, bonus_type: COMPLETION_BONUS.reward_type, bonus_amount: COMPLETION_BONUS.reward_amount, completed_at: at },
          });
        }
        return events;
      }
      case 'dismiss':
        if (state.dismissed) return [];
        return [{ type: 'OnboardingDismissed', data: { user_id: command.userId, dismissed_at: at } }];
      default:
        return assertNever(command);
    }
  },
};
