/**
 * Command handlers of the social accounts context. The follow edge and the
 * notification inbox have streams of their own; profile, handle, ban and
 * anonymising decisions belong to the user stream (`user-<id>`); unique
 * handles and usernames are claim streams (docs/architecture.md).
 */
import { createHash } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { userDecider, type UserState } from '../../aggregates/accounts/user';
import { userStreamId } from '../../aggregates/accounts/user.events';
import { DomainError } from '../../aggregates/shared/domain-error';
import { followDecider, followStreamId } from '../../aggregates/social/follow';
import { notificationInboxDecider, notificationInboxStreamId } from '../../aggregates/social/notification-inbox';
import { CommandExecutor, type CommandContext } from '../common/command-executor';
import { Claims, userRecordOf } from '../accounts/accounts.handlers';
import { AccountsQueries, toUserView, type UserView } from '../accounts/accounts.queries';
import {
  AdminUpdateUser,
  AnonymizeUser,
  ChangeHandle,
  FollowUser,
  MarkAllNotificationsRead,
  MarkNotificationsRead,
  SetUserBan,
  UnfollowUser,
  UpdateProfile,
} from './social.commands';
import type { AdminUserView } from './social.queries';

@CommandHandler(FollowUser)
export class FollowUserHandler implements ICommandHandler<FollowUser> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { followerId, followerUsername, followeeId }, context }: FollowUser): Promise<{ followed: boolean }> {
    // the route resolves a name through the read model; every caller (the bot webhook too) follows an account that exists
    if ((await this.executor.load(userDecider, userStreamId(followeeId))).state.status === 'none') throw new DomainError('not_found', 'User not found');
    const { events } = await this.executor.execute(
      followDecider,
      followStreamId(followerId, followeeId),
      { kind: 'follow', followerId, followeeId, followerUsername },
      context,
    );
    return { followed: events.length > 0 };
  }
}

@CommandHandler(UnfollowUser)
export class UnfollowUserHandler implements ICommandHandler<UnfollowUser> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { followerId, followeeId }, context }: UnfollowUser): Promise<{ unfollowed: true }> {
    await this.executor.execute(followDecider, followStreamId(followerId, followeeId), { kind: 'unfollow', followerId, followeeId }, context);
    return { unfollowed: true };
  }
}

/** Claims the handle, sets it on the user stream, then releases the previous one; a refused change releases the new claim. */
async function setHandle(executor: CommandExecutor, claims: Claims, userId: string, handle: string, context: CommandContext): Promise<UserState> {
  const { state: before } = await executor.load(userDecider, userStreamId(userId));
  if (before.status === 'none') throw new DomainError('not_found', 'User not found');
  if (before.handle === handle) return before;
  await claims.claim('handle', handle, userId, context);
  let after: UserState;
  try {
    after = (await executor.execute(userDecider, userStreamId(userId), { kind: 'changeHandle', handle }, context)).state;
  } catch (error) {
    await claims.release('handle', handle, userId, context);
    throw error;
  }
  if (before.handle) await claims.release('handle', before.handle, userId, context);
  return after;
}

@CommandHandler(ChangeHandle)
export class ChangeHandleHandler implements ICommandHandler<ChangeHandle> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly claims: Claims,
  ) {}

  async execute({ payload: { userId, handle }, context }: ChangeHandle): Promise<{ handle: string }> {
    await setHandle(this.executor, this.claims, userId, handle, context);
    return { handle };
  }
}

@CommandHandler(UpdateProfile)
export class UpdateProfileHandler implements ICommandHandler<UpdateProfile> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly claims: Claims,
  ) {}

  async execute({ payload: { userId, changes, handle, updatedBy }, context }: UpdateProfile): Promise<UserView> {
    let { state } = await this.executor.execute(userDecider, userStreamId(userId), { kind: 'updateProfile', changes, updatedBy }, context);
    // the handle applies to human users only (social-routes §2)
    if (handle !== undefined && state.status !== 'none' && state.userType === 'human') {
      state = await setHandle(this.executor, this.claims, userId, handle, context);
    }
    return toUserView(userRecordOf(state), userId === updatedBy);
  }
}

/** `deleted_` + 12 hex characters of SHA-256(id) (social-routes §2). */
export const anonymousUsername = (userId: string): string => `deleted_${createHash('sha256').update(userId).digest('hex').slice(0, 12)}`;

/**
 * Erases the account in place: the new username is claimed first, the user
 * stream records the erasure, then the old username, e-mail and handle claims
 * are released for others to take.
 */
@CommandHandler(AnonymizeUser)
export class AnonymizeUserHandler implements ICommandHandler<AnonymizeUser> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly claims: Claims,
    private readonly accounts: AccountsQueries,
  ) {}

  async execute({ payload: { userId, requestedBy, eraseContent }, context }: AnonymizeUser): Promise<{ anonymized: true; user_id: string; message: string }> {
    const { state: before } = await this.executor.load(userDecider, userStreamId(userId));
    if (before.status === 'none') throw new DomainError('not_found', 'User not found');
    const reply = {
      anonymized: true as const,
      user_id: userId,
      message: eraseContent ? 'Your personal data, posts and comments have been deleted' : 'Your personal data has been deleted; your posts remain, anonymised',
    };
    if (before.anonymized) return reply;
    // a guest's device claim, located before the erasure empties the read model (the claim stream checks the owner)
    const deviceId = before.status === 'guest' ? ((await this.accounts.userById(userId))?.device_id ?? null) : null;
    const username = anonymousUsername(userId);
    await this.claims.claim('username', username, userId, context);
    // the personal claims go before the anonymisation: their events are sealed with the key it erases
    if (before.status === 'registered' && before.email) await this.claims.release('email', before.email, userId, context);
    if (before.handle) await this.claims.release('handle', before.handle, userId, context);
    if (deviceId) await this.claims.release('device', deviceId, userId, context);
    await this.executor.execute(userDecider, userStreamId(userId), { kind: 'anonymize', username, requestedBy, eraseContent }, context);
    await this.claims.release('username', before.username, userId, context);
    return reply;
  }
}

@CommandHandler(SetUserBan)
export class SetUserBanHandler implements ICommandHandler<SetUserBan> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId, banned, by }, context }: SetUserBan): Promise<void> {
    await this.executor.execute(userDecider, userStreamId(userId), banned ? { kind: 'ban', by } : { kind: 'unban', by }, context);
  }
}

/** Profile fields, then the role (the flags follow it), then the ban, each on the user stream. */
@CommandHandler(AdminUpdateUser)
export class AdminUpdateUserHandler implements ICommandHandler<AdminUpdateUser> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId, changes, role, isBanned, by }, context }: AdminUpdateUser): Promise<AdminUserView> {
    const stream = userStreamId(userId);
    let { state } = await this.executor.execute(userDecider, stream, { kind: 'updateProfile', changes, updatedBy: by }, context);
    if (role) state = (await this.executor.execute(userDecider, stream, { kind: 'changeRole', role, changedBy: by }, context)).state;
    if (isBanned !== undefined) {
      state = (await this.executor.execute(userDecider, stream, isBanned ? { kind: 'ban', by } : { kind: 'unban', by }, context)).state;
    }
    const record = userRecordOf(state);
    return { ...toUserView(record, false), is_banned: state.status !== 'none' && state.banned, email: record.email };
  }
}

@CommandHandler(MarkNotificationsRead)
export class MarkNotificationsReadHandler implements ICommandHandler<MarkNotificationsRead> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId, ids }, context }: MarkNotificationsRead): Promise<void> {
    await this.executor.execute(notificationInboxDecider, notificationInboxStreamId(userId), { kind: 'markRead', userId, ids }, context);
  }
}

@CommandHandler(MarkAllNotificationsRead)
export class MarkAllNotificationsReadHandler implements ICommandHandler<MarkAllNotificationsRead> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId }, context }: MarkAllNotificationsRead): Promise<void> {
    await this.executor.execute(notificationInboxDecider, notificationInboxStreamId(userId), { kind: 'markAllRead', userId }, context);
  }
}
