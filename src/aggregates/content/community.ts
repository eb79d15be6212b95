/**
 * A community (stream `community-<name key>`; social-routes §6): the stream
 * is keyed by the lower-cased name, so it is the name's claim: two creations
 * of one name serialise on it and the second is refused. Members and their
 * roles live in the stream too, so joins and leaves of one user are decided
 * against the member list and member_count never double-counts.
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';
import type { CommunityEvent, CommunityFields, CommunityRole } from './content.events';

export interface CommunityRecord extends CommunityFields {
  id: string;
}

export type CommunityState =
  | { status: 'none' }
  | { status: 'active'; community: CommunityRecord; members: Readonly<Record<string, CommunityRole>>; memberCount: number };

export type CommunityCommand =
  | { kind: 'create'; communityId: string; name: string; displayName: string; description: string; rules: string; isPrivate: boolean; creatorId: string }
  | { kind: 'update'; actorId: string; isAdmin: boolean; changes: { display_name?: string; description?: string; rules?: string } }
  | { kind: 'join'; userId: string }
  | { kind: 'leave'; userId: string }
  | { kind: 'setRole'; actorId: string; isAdmin: boolean; userId: string; role: 'member' | 'moderator' };

export const COMMUNITY_NOT_FOUND = 'Community not found';

const initialState: CommunityState = { status: 'none' };

function withMember(members: Readonly<Record<string, CommunityRole>>, userId: string, role: CommunityRole | null): Record<string, CommunityRole> {
  const next = { ...members };
  if (role === null) delete next[userId];
  else next[userId] = role;
  return next;
}

function evolve(state: CommunityState, event: CommunityEvent): CommunityState {
  switch (event.type) {
    case 'CommunityCreated': {
      const { community_id, ...rest } = event.data;
      return { status: 'active', community: { id: community_id, ...rest }, members: {}, memberCount: 0 };
    }
    case 'CommunityUpdated':
      if (state.status === 'none') return state;
      return { ...state, community: { ...state.community, ...event.data.changes } };
    case 'CommunityJoined':
      if (state.status === 'none') return state;
      return { ...state, members: withMember(state.members, event.data.user_id, event.data.role), memberCount: event.data.member_count };
    case 'CommunityLeft':
      if (state.status === 'none') return state;
      return { ...state, members: withMember(state.members, event.data.user_id, null), memberCount: event.data.member_count };
    case 'CommunityRoleSet':
      if (state.status === 'none') return state;
      return { ...state, members: withMember(state.members, event.data.user_id, event.data.role) };
    default:
      return assertNever(event);
  }
}

type Active = Extract<CommunityState, { status: 'active' }>;

function active(state: CommunityState): Active {
  if (state.status !== 'active') throw new DomainError('not_found', COMMUNITY_NOT_FOUND);
  return state;
}

/** The user's role in the community, or null when not a member. */
export function roleIn(state: CommunityState, userId: string): CommunityRole | null {
  return state.status === 'active' ? (state.members[userId] ?? null) : null;
}

/** Community admins and moderators moderate it (pin, PATCH). */
export const moderatesCommunity = (state: CommunityState, userId: string): boolean => {
  const role = roleIn(state, userId);
  return role === 'admin' || role === 'moderator';
};

function decide(command: CommunityCommand, state: CommunityState, now: Date): CommunityEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'create': {
      if (state.status !== 'none') throw new DomainError('invalid', `Community '${command.name}' already exists`);
      return [
        {
          type: 'CommunityCreated',
          data: {
            community_id: command.communityId,
            name: command.name,
            display_name: command.displayName,
            description: command.description,
            rules: command.rules,
            is_private: command.isPrivate,
            creator_id: command.creatorId,
            created_at: at,
          },
        },
        { type: 'CommunityJoined', data: { community_id: command.communityId, user_id: command.creatorId, role: 'admin', member_count: 1, at } },
      ];
    }
    case 'update': {
      const community = active(state);
      if (!command.isAdmin && !moderatesCommunity(community, command.actorId)) throw new DomainError('forbidden', 'Moderator access required');
      if (Object.keys(command.changes).length === 0) return [];
      return [{ type: 'CommunityUpdated', data: { community_id: community.community.id, changes: command.changes, actor_id: command.actorId, at } }];
    }
    case 'join': {
      const community = active(state);
      if (community.members[command.userId]) return [];
      return [
        {
          type: 'CommunityJoined',
          data: { community_id: community.community.id, user_id: command.userId, role: 'member', member_count: community.memberCount + 1, at },
        },
      ];
    }
    case 'leave': {
      const community = active(state);
      if (!community.members[command.userId]) return [];
      return [
        { type: 'CommunityLeft', data: { community_id: community.community.id, user_id: command.userId, member_count: Math.max(0, community.memberCount - 1), at } },
      ];
    }
    case 'setRole': {
      const community = active(state);
      if (!command.isAdmin && roleIn(community, command.actorId) !== 'admin') throw new DomainError('forbidden', 'Admin access required');
      const current = community.members[command.userId];
      if (!current) {
        if (command.role === 'member') return [];
        throw new DomainError('invalid', 'User is not a member');
      }
      if (current === command.role) return [];
      return [{ type: 'CommunityRoleSet', data: { community_id: community.community.id, user_id: command.userId, role: command.role, actor_id: command.actorId, at } }];
    }
    default:
      return assertNever(command);
  }
}

export const communityDecider: Decider<CommunityState, CommunityCommand, CommunityEvent> = { initialState, evolve, decide };
