/** Reply schemas of the content routes for the OpenAPI document (the `data` of `{success: true, data}`). */
import { bool, int, list, num, obj, oneOf, orNull, Reply, str, type JsonSchema } from '../common/openapi';
import { USER_VIEW } from '../accounts/accounts.replies';
import { CONTENT_TYPES } from './content.requests';

const time = str({ format: 'date-time' });

/** The Post record (+author, +user_vote for a signed-in viewer; social-routes §0.5). */
export const POST_VIEW = obj(
  {
    id: str(),
    author_id: str(),
    community_id: orNull(str()),
    title: str({ description: 'HTML-escaped' }),
    content: str({ description: 'HTML-escaped' }),
    content_type: oneOf(CONTENT_TYPES),
    code_language: orNull(str()),
    recipe_ref: orNull(str()),
    media_urls: list(str()),
    link_url: orNull(str()),
    upvotes: int(),
    downvotes: int(),
    score: int(),
    comment_count: int(),
    view_count: int(),
    is_pinned: bool(),
    is_locked: bool(),
    source_channel: orNull(str()),
    boost_score: num({ description: 'the sum of the multipliers of the boosts bought for it' }),
    region_id: orNull(str()),
    intent_category: orNull(str()),
    hypothesis: orNull(str()),
    expected_outcome: orNull(str()),
    is_thought_experiment: bool(),
    is_hidden: bool(),
    dynamic_layout: {},
    created_at: time,
    updated_at: time,
    author: orNull(USER_VIEW),
    user_vote: oneOf([1, -1, 0], { description: 'the signed-in viewer’s vote' }),
  },
  ['user_vote'],
);

export const POST_LIST = list(POST_VIEW);

export const COMMENT_VIEW = obj(
  {
    id: str(),
    post_id: str(),
    author_id: str(),
    parent_id: orNull(str()),
    content: str({ description: 'HTML-escaped; `[deleted]` once deleted' }),
    upvotes: int(),
    downvotes: int(),
    score: int(),
    depth: int(),
    is_deleted: bool(),
    is_hidden: bool(),
    created_at: time,
    author: orNull(USER_VIEW),
  },
);

export const COMMENT_LIST = list({
  ...COMMENT_VIEW,
  properties: {
    ...(COMMENT_VIEW.properties as object),
    parent_comment_id: { anyOf: [str(), { const: 0 }], description: '0 for a top-level comment' },
    comment: str(),
    name: str(),
    creation_date: time,
  },
});

export const VOTE_RESULT = obj({ action: oneOf(['voted', 'changed', 'removed']), score: int() });
export const VOTERS = list(obj({ user_id: str(), name: str(), profilePic: orNull(str()) }));

export const REPORT_VIEW = obj({
  id: str(),
  reporter_id: str(),
  target_type: oneOf(['post', 'comment']),
  target_id: str(),
  reason: str(),
  details: orNull(str()),
  status: str({ description: 'pending, reviewed, resolved, dismissed, or what a moderator set' }),
  moderator_id: orNull(str()),
  created_at: time,
});

export const COMMUNITY_VIEW = obj(
  {
    id: str(),
    name: str(),
    display_name: str(),
    description: str(),
    rules: str(),
    icon_url: orNull(str()),
    banner_url: orNull(str()),
    creator_id: str(),
    is_default: bool(),
    is_private: bool(),
    member_count: int(),
    post_count: int(),
    created_at: time,
    is_member: bool({ description: 'signed-in viewers only' }),
    role: orNull(oneOf(['member', 'moderator', 'admin'])),
  },
  ['is_member', 'role'],
);

export const MEMBERS = list(obj({ user: orNull(USER_VIEW), role: oneOf(['member', 'moderator', 'admin']) }));

export const flagReply = (name: string): JsonSchema => obj({ [name]: bool() });

/** A page of a list: `{success, data: [...], meta: {total, limit, offset, has_more}}`. */
export const PagedReply = (items: JsonSchema, description = 'a page of the list'): MethodDecorator =>
  Reply(200, obj({ success: { const: true }, data: items, meta: obj({ total: int(), limit: int(), offset: int(), has_more: bool() }) }), description);

const AGENT_BRIEF = { id: str(), username: str(), display_name: str(), avatar_url: orNull(str()), user_type: str() };

export const AGENT_SPOTLIGHT = obj({
  agent_of_the_day: orNull(obj({ ...AGENT_BRIEF, total_agents_today: int({ description: 'upvotes on its posts of the last 24 h' }) })),
  rising_agents: list(obj({ ...AGENT_BRIEF, karma_score: int() }), { maxItems: 5 }),
  your_agents: list(USER_VIEW, { maxItems: 10 }),
});
