/** Commands of achievements, challenges and seasons (social-routes §15). */
import type { Rewards } from '../../aggregates/gamification/achievements';
import type { Challenge, ChallengeEntryCommand } from '../../aggregates/gamification/challenges';
import type { UserAchievementsCommand } from '../../aggregates/gamification/user-achievements';
import type { CommandInput } from '../../aggregates/shared/decider';
import { DomainCommand } from '../common/domain-command';

/** The achievements saga: one more of `metric` by the user, from the source event at `sourcePosition`. */
export class CountAchievementProgress extends DomainCommand<CommandInput<UserAchievementsCommand, 'count'>, void> {}

/** The achievements saga: a stat of the user as it is now (streak days). */
export class ObserveAchievementStat extends DomainCommand<CommandInput<UserAchievementsCommand, 'observe'>, void> {}

/** The achievements saga: the user's wallet XP may have grown; their level, read from the wallet stream, is observed. */
export class ObserveLevel extends DomainCommand<{ userId: string }, void> {}

export class ToggleAchievementShowcase extends DomainCommand<CommandInput<UserAchievementsCommand, 'toggleShowcase'>, { is_showcased: boolean }> {}

/** POST /challenges (admin): a challenge beside the rotating ones. */
export class CreateChallenge extends DomainCommand<Omit<Challenge, 'id' | 'created_at'>, Challenge> {}

export type ProgressOutcome = { progress: number; target: number; completed: boolean; already_complete?: true };
export class ProgressChallenge extends DomainCommand<{ challengeId: string; userId: string; increment: number }, ProgressOutcome> {}

export type ClaimOutcome = { rewards: Rewards } | { already_claimed: true };
export class ClaimChallenge extends DomainCommand<CommandInput<ChallengeEntryCommand, 'claim'>, ClaimOutcome> {}
