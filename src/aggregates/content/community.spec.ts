import { deciderKit } from '../../../test/support/decider-kit';
import { type CommunityCommand, communityDecider } from './community';

const now = new Date('2026-05-01T12:00:00.000Z');
const { given, history, after } = deciderKit(communityDecider, now);

const create: CommunityCommand = { kind: 'create', communityId: 'c1', name: 'Rust', displayName: 'Rust', description: '', rules: '', isPrivate: false, creatorId: 'alice' };
const created = history(create);

describe('community', () => {
  it('given nothing, when created, then the creator joins as admin with member_count 1', () =>
    expect(given().when(create).events()[1]).toEqual({ type: 'CommunityJoined', data: { community_id: 'c1', user_id: 'alice', role: 'admin', member_count: 1, at: now.toISOString() } }));

  it('given a community of that name, when created again, then it is refused with the original text', () =>
    given(...created).when({ ...create, communityId: 'c2', name: 'rust' }).thenRefused('invalid', "Community 'rust' already exists"));

  it('given a member, when joining again, then nothing is recorded and the count stays', () => {
    const state = after(create, { kind: 'join', userId: 'bob' }, { kind: 'join', userId: 'bob' });
    expect(state.status === 'active' && state.memberCount).toBe(2);
  });

  it('given a non-member, when leaving, then nothing is recorded (idempotent)', () => given(...created).when({ kind: 'leave', userId: 'bob' }).thenNothing());

  it('given a plain member, when promoting someone, then 403 Admin access required', () =>
    given(...history(create, { kind: 'join', userId: 'bob' })).when({ kind: 'setRole', actorId: 'bob', isAdmin: false, userId: 'alice', role: 'moderator' }).thenRefused('forbidden', 'Admin access required'));

  it('given a non-member, when promoted, then 400 User is not a member', () =>
    given(...created).when({ kind: 'setRole', actorId: 'alice', isAdmin: false, userId: 'zed', role: 'moderator' }).thenRefused('invalid', 'User is not a member'));

  it('given a plain member, when updating, then 403 Moderator access required', () =>
    given(...history(create, { kind: 'join', userId: 'bob' })).when({ kind: 'update', actorId: 'bob', isAdmin: false, changes: { description: 'x' } }).thenRefused('forbidden', 'Moderator access required'));

  it('given no community, when joining, then 404 Community not found', () => given().when({ kind: 'join', userId: 'bob' }).thenRefused('not_found', 'Community not found'));
});
