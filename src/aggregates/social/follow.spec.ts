import { deciderKit } from '../../../test/support/decider-kit';
import { CANNOT_FOLLOW_YOURSELF, followDecider, type FollowCommand, type FollowEvent } from './follow';

const now = new Date('2026-11-23T10:00:00.000Z');
const { given } = deciderKit(followDecider, now);

const follow: FollowCommand = { kind: 'follow', followerId: 'ann', followeeId: 'bob', followerUsername: 'ann' };
const unfollow: FollowCommand = { kind: 'unfollow', followerId: 'ann', followeeId: 'bob' };
const followed: FollowEvent = { type: 'UserFollowed', data: { follower_id: 'ann', followee_id: 'bob', follower_username: 'ann', at: '2026-11-23T09:00:00.000Z' } };

describe('follow edge', () => {
  it('given no edge, when following, then UserFollowed is recorded', () =>
    given().when(follow).then({ type: 'UserFollowed', data: { follower_id: 'ann', followee_id: 'bob', follower_username: 'ann', at: now.toISOString() } }));

  it('given a follow, when following again, then nothing is recorded (idempotent)', () => given(followed).when(follow).then());

  it('given a follow, when unfollowing, then UserUnfollowed is recorded', () =>
    given(followed).when(unfollow).then({ type: 'UserUnfollowed', data: { follower_id: 'ann', followee_id: 'bob', at: now.toISOString() } }));

  it('given no edge, when unfollowing, then nothing is recorded (idempotent)', () => given().when(unfollow).then());

  it('when following yourself, then it is refused', () =>
    given().when({ ...follow, followeeId: 'ann' }).thenRefused('invalid', CANNOT_FOLLOW_YOURSELF));
});
