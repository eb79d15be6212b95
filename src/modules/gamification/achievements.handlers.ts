/**
 * Command handlers of achievements and challenges (social-routes §15). The
 * counts and unlocks decide on the user's achievements stream; a challenge's
 * progress and claim on the user's entry stream of that challenge. Rewards
 * are the achievements saga's (GrantReward, once per source).
 */
import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { levelOf } from '../../aggregates/contest/levels';
import { walletDecider, walletStreamId } from '../../aggregates/contest/wallet';
import {
  type Challenge,
  CHALLENGE_NOT_FOUND,
  challengeDecider,
  challengeEntryDecider,
  challengeEntryStreamId,
  challengeStreamId,
  rotatingChallenge,
} from '../../aggregates/gamification/challenges';
import { userAchievementsDecider, userAchievementsStreamId } from '../../aggregates/gamification/user-achievements';
import { DomainError } from '../../aggregates/shared/domain-error';
import { CommandExecutor, type ExecuteOptions } from '../common/command-executor';
import {
  ClaimChallenge,
  type ClaimOutcome,
  CountAchievementProgress,
  CreateChallenge,
  ObserveAchievementStat,
  ObserveLevel,
  ProgressChallenge,
  type ProgressOutcome,
  ToggleAchievementShowcase,
} from './achievements.commands';

/** Saga commands: many sources may count on one stream at once, and nobody reads right after them. */
const FROM_SAGA: ExecuteOptions = { maxRetries: 20, readYourWrites: false };

@CommandHandler(CountAchievementProgress)
export class CountAchievementProgressHandler implements ICommandHandler<CountAchievementProgress> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: CountAchievementProgress): Promise<void> {
    await this.executor.execute(userAchievementsDecider, userAchievementsStreamId(payload.userId), { kind: 'count', ...payload }, context, FROM_SAGA);
  }
}

@CommandHandler(ObserveAchievementStat)
export class ObserveAchievementStatHandler implements ICommandHandler<ObserveAchievementStat> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ObserveAchievementStat): Promise<void> {
    await this.executor.execute(userAchievementsDecider, userAchievementsStreamId(payload.userId), { kind: 'observe', ...payload }, context, FROM_SAGA);
  }
}

@CommandHandler(ObserveLevel)
export class ObserveLevelHandler implements ICommandHandler<ObserveLevel> {
  constructor(private readonly executor: CommandExecutor) {}

  /** The level of the wallet's XP now (the write side's own account, never a read model that may lag). */
  async execute({ payload, context }: ObserveLevel): Promise<void> {
    const { state } = await this.executor.load(walletDecider, walletStreamId(payload.userId));
    const { level } = levelOf(state.reputation.xp);
    await this.executor.execute(userAchievementsDecider, userAchievementsStreamId(payload.userId), { kind: 'observe', userId: payload.userId, stat: 'level', value: level }, context, FROM_SAGA);
  }
}

@CommandHandler(ToggleAchievementShowcase)
export class ToggleAchievementShowcaseHandler implements ICommandHandler<ToggleAchievementShowcase> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ToggleAchievementShowcase): Promise<{ is_showcased: boolean }> {
    const { state } = await this.executor.execute(userAchievementsDecider, userAchievementsStreamId(payload.userId), { kind: 'toggleShowcase', ...payload }, context);
    return { is_showcased: state.showcased.has(payload.achievementId) };
  }
}

/** A challenge by id, from the write side: a rotating one from its id, an admin's from its stream; 404 otherwise. */
export async function challengeById(executor: CommandExecutor, id: string): Promise<Challenge> {
  const rotating = rotatingChallenge(id);
  if (rotating) return rotating;
  if (!/^ch_[0-9a-f]{32}$/.test(id)) throw new DomainError('not_found', CHALLENGE_NOT_FOUND);
  const { state } = await executor.load(challengeDecider, challengeStreamId(id));
  if (state.status === 'none') throw new DomainError('not_found', CHALLENGE_NOT_FOUND);
  return state.challenge;
}

@CommandHandler(CreateChallenge)
export class CreateChallengeHandler implements ICommandHandler<CreateChallenge> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: CreateChallenge): Promise<Challenge> {
    const id = `ch_${randomUUID().replace(/-/g, '')}`;
    const { state } = await this.executor.execute(challengeDecider, challengeStreamId(id), { kind: 'create', challenge: { ...payload, id } }, context, { newStream: true });
    if (state.status === 'none') throw new DomainError('internal', 'the challenge was not recorded');
    return state.challenge;
  }
}

@CommandHandler(ProgressChallenge)
export class ProgressChallengeHandler implements ICommandHandler<ProgressChallenge> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ProgressChallenge): Promise<ProgressOutcome> {
    const challenge = await challengeById(this.executor, payload.challengeId);
    const { events, state } = await this.executor.execute(
      challengeEntryDecider,
      challengeEntryStreamId(challenge.id, payload.userId),
      { kind: 'progress', challenge, userId: payload.userId, increment: payload.increment },
      context,
    );
    if (state.status === 'none') throw new DomainError('internal', 'the progress was not recorded');
    const outcome: ProgressOutcome = { progress: state.progress, target: state.target, completed: state.completed };
    return events.length === 0 ? { ...outcome, already_complete: true } : outcome;
  }
}

@CommandHandler(ClaimChallenge)
export class ClaimChallengeHandler implements ICommandHandler<ClaimChallenge> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ClaimChallenge): Promise<ClaimOutcome> {
    const { events } = await this.executor.execute(challengeEntryDecider, challengeEntryStreamId(payload.challengeId, payload.userId), { kind: 'claim', ...payload }, context);
    const claimed = events.find((e) => e.type === 'ChallengeRewardClaimed');
    if (!claimed || claimed.type !== 'ChallengeRewardClaimed') return { already_claimed: true };
    const { pulse, spark, signal, xp } = claimed.data;
    return { rewards: { pulse, spark, signal, xp } };
  }
}
