/**
 * One edge of the follow graph (social-routes §2): does `follower` follow
 * `followee`? Each pair has its own stream (`follow-<follower>:<followee>`),
 * the consistency boundary of the edge, so concurrent follows of one pair
 * serialise and at most one `UserFollowed` is recorded per actual change:
 * the counters fed from these events never double count.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export type FollowEvent =
  /** `follower_username`: the follower's name when it followed, for the notification's text */
  | { type: 'UserFollowed'; data: { follower_id: string; followee_id: string; follower_username: string; at: string } }
  | { type: 'UserUnfollowed'; data: { follower_id: string; followee_id: string; at: string } };

export type FollowState = { status: 'none' } | { status: 'following'; since: string };

export type FollowCommand =
  | { kind: 'follow'; followerId: string; followeeId: string; followerUsername: string }
  | { kind: 'unfollow'; followerId: string; followeeId: string };

export const CANNOT_FOLLOW_YOURSELF = 'Cannot follow yourself';

export function followStreamId(followerId: string, followeeId: string): string {
  return `follow-${followerId}:${followeeId}`;
}

export const followDecider: Decider<FollowState, FollowCommand, FollowEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'UserFollowed':
        return { status: 'following', since: event.data.at };
      case 'UserUnfollowed':
        return { status: 'none' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'follow':
        if (command.followerId === command.followeeId) throw new DomainError('invalid', CANNOT_FOLLOW_YOURSELF);
        if (state.status === 'following') return [];
        return [
          {
            type: 'UserFollowed',
            data: { follower_id: command.followerId, followee_id: command.followeeId, follower_username: command.followerUsername, at },
          },
        ];
      case 'unfollow':
        if (state.status !== 'following') return [];
        return [{ type: 'UserUnfollowed', data: { follower_id: command.followerId, followee_id: command.followeeId, at } }];
      default:
        return assertNever(command);
    }
  },
};
