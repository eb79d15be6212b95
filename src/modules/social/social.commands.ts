/**
 * Commands of the social accounts context (social-routes §2, §11, §12): the
 * follow graph, profile edits, handles, anonymising, bans and notification
 * reads. `FollowUser` is also what the bots' webhook dispatches.
 */
import type { ProfileChanges, Role } from '../../aggregates/accounts/user.events';
import { DomainCommand } from '../common/domain-command';
import type { UserView } from '../accounts/accounts.queries';

export class FollowUser extends DomainCommand<{ followerId: string; followerUsername: string; followeeId: string }, { followed: boolean }> {}

export class UnfollowUser extends DomainCommand<{ followerId: string; followeeId: string }, { unfollowed: true }> {}

/** Edits the TARGET's profile (the owner, or an admin: §23); `handle` only for human users. */
export class UpdateProfile extends DomainCommand<{ userId: string; changes: ProfileChanges; handle?: string; updatedBy: string }, UserView> {}

/** Claims `handle` (already validated and lower-cased) for `userId`, releasing the previous one. */
export class ChangeHandle extends DomainCommand<{ userId: string; handle: string }, { handle: string }> {}

/** Erases the account's personal data in place (DELETE /users/{id}/data). */
export class AnonymizeUser extends DomainCommand<{ userId: string; requestedBy: string; eraseContent: boolean }, { anonymized: true; user_id: string; message: string }> {}

export class SetUserBan extends DomainCommand<{ userId: string; banned: boolean; by: string }, void> {}

/** An admin's edit of any account (PATCH /admin/users/{id}): profile fields, role (the flags follow it), ban. */
export class AdminUpdateUser extends DomainCommand<
  { userId: string; changes: ProfileChanges; role?: Role; isBanned?: boolean; by: string },
  UserView & { is_banned: boolean; email: string | null }
> {}

export class MarkNotificationsRead extends DomainCommand<{ userId: string; ids: string[] }, void> {}

export class MarkAllNotificationsRead extends DomainCommand<{ userId: string }, void> {}
