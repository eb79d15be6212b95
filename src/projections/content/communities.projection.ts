/**
 * `communities` (the Community record of social-routes §0.5, with
 * `name_key` for lookups by name) and `community_members` (one document per
 * member: `<community_id>:<user_id>`, with the role). member_count comes from
 * the community's stream (each join and leave event carries it); post_count
 * follows the posts published into it and deleted by their authors (§4).
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const COMMUNITIES = 'communities';
export const COMMUNITY_MEMBERS = 'community_members';

/** The Community record of §0.5. */
export interface CommunityRecordFields {
  id: string;
  name: string;
  display_name: string;
  description: string;
  rules: string;
  icon_url: string | null;
  banner_url: string | null;
  creator_id: string;
  is_default: boolean;
  is_private: boolean;
  member_count: number;
  post_count: number;
  created_at: string;
}

export interface CommunityDoc extends Doc, CommunityRecordFields {
  name_key: string;
}

export interface CommunityMemberDoc extends Doc {
  community_id: string;
  user_id: string;
  role: string;
  joined_at: string;
}

export const memberDocId = (communityId: string, userId: string): string => `${communityId}:${userId}`;

export const communitiesProjection = defineProjection({
  name: 'communities',
  version: 1,
  collections: [COMMUNITIES, COMMUNITY_MEMBERS],
  indexes: [
    { collection: COMMUNITIES, spec: { keys: { name_key: 1 } } },
    { collection: COMMUNITIES, spec: { keys: { member_count: -1, created_at: 1 } } },
    { collection: COMMUNITY_MEMBERS, spec: { keys: { user_id: 1 } } },
    { collection: COMMUNITY_MEMBERS, spec: { keys: { community_id: 1 } } },
    { collection: COMMUNITY_MEMBERS, spec: { keys: { community_id: 1, role: 1 } } },
  ],
  on: {
    CommunityCreated: (event, writer) => {
      const { community_id, ...rest } = event.data;
      applyOnce(writer, COMMUNITIES, community_id, event, {
        $set: { id: community_id, ...rest, name_key: rest.name.trim().toLowerCase(), icon_url: null, banner_url: null, is_default: false, member_count: 0, post_count: 0 },
      });
    },
    CommunityUpdated: (event, writer) => applyOnce(writer, COMMUNITIES, event.data.community_id, event, { $set: event.data.changes }, { upsert: false }),
    CommunityJoined: (event, writer) => {
      const d = event.data;
      applyOnce(writer, COMMUNITIES, d.community_id, event, { $set: { member_count: d.member_count } }, { upsert: false });
      applyOnce(writer, COMMUNITY_MEMBERS, memberDocId(d.community_id, d.user_id), event, {
        $set: { community_id: d.community_id, user_id: d.user_id, role: d.role, joined_at: d.at },
      });
    },
    CommunityLeft: (event, writer) => {
      const d = event.data;
      applyOnce(writer, COMMUNITIES, d.community_id, event, { $set: { member_count: d.member_count } }, { upsert: false });
      writer.write(COMMUNITY_MEMBERS, { deleteOne: { filter: { _id: memberDocId(d.community_id, d.user_id), _pos: { $lt: event.position } } } });
    },
    CommunityRoleSet: (event, writer) =>
      applyOnce(writer, COMMUNITY_MEMBERS, memberDocId(event.data.community_id, event.data.user_id), event, { $set: { role: event.data.role } }, { upsert: false }),
    PostPublished: (event, writer) => {
      if (event.data.community_id) applyOnce(writer, COMMUNITIES, event.data.community_id, event, { $inc: { post_count: 1 } }, { upsert: false });
    },
    PostDeleted: (event, writer) => {
      if (event.data.community_id && event.data.by === 'author') {
        applyOnce(writer, COMMUNITIES, event.data.community_id, event, { $inc: { post_count: -1 } }, { upsert: false });
      }
    },
  },
});
