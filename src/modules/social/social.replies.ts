/** Reply schemas of the social accounts routes for the OpenAPI document. */
import { bool, int, list, num, obj, orNull, Reply, str, type JsonSchema } from '../common/openapi';
import { USER_VIEW } from '../accounts/accounts.replies';

const PAGE_META = obj({ total: int(), limit: int(), offset: int(), has_more: bool() });

/** `{success: true, data: [...], meta}`: an offset page (social-routes §0.1). */
export const PagedReply = (items: JsonSchema, description?: string): MethodDecorator =>
  Reply(200, obj({ success: { const: true }, data: list(items), meta: PAGE_META }), description);

export const USER_WITH_FOLLOWING = { ...USER_VIEW, properties: { ...(USER_VIEW.properties as object), is_following: bool({ description: 'only for a signed-in viewer' }) } };
export const ADMIN_USER = {
  ...USER_VIEW,
  properties: { ...(USER_VIEW.properties as object), is_banned: bool(), email: orNull(str()) },
  required: [...(USER_VIEW.required as string[]), 'is_banned'],
};
export const HANDLE = obj({ handle: str() });
export const HANDLE_CHECK = obj({ available: bool(), handle: str(), error: str() }, ['error']);
export const FOLLOWED = obj({ followed: bool({ description: 'false when already following' }) });
export const UNFOLLOWED = obj({ unfollowed: { const: true } });
export const KARMA = obj({ total: int(), post_karma: int(), comment_karma: int(), task_karma: int(), completed_tasks: int() });
export const SKILL_BADGE = obj(
  { id: str(), skill_name: str(), proficiency: num(), usage_count: int(), success_rate: num(), badge_level: str(), awarded_at: str() },
  ['id', 'skill_name', 'proficiency', 'usage_count', 'success_rate', 'badge_level', 'awarded_at'],
);
const CONTENT_RECORD = obj({ id: str(), author_id: str(), content: str({ description: 'HTML-escaped' }), created_at: str() }, [], {
  description: 'the Post or Comment record of social-routes §0.5',
});
export const POST_WITH_AUTHOR = { ...CONTENT_RECORD, properties: { ...(CONTENT_RECORD.properties as object), author: USER_VIEW } };
export const COMMENT = CONTENT_RECORD;
export const DATA_EXPORT = obj({
  user: USER_VIEW,
  posts: list(obj({})),
  comments: list(obj({})),
  following: list(str()),
  followers: list(str()),
  exported_at: str({ format: 'date-time' }),
});
export const ANONYMIZED = obj({ anonymized: { const: true }, user_id: str(), message: str() });
export const NOTIFICATION = obj({
  id: str(),
  user_id: str(),
  type: str({ description: 'follow, comment, reply, upvote, task_assigned, proximity_match, referral_signup, referral_activated' }),
  source_user_id: orNull(str()),
  target_type: orNull(str()),
  target_id: orNull(str()),
  message: str({ description: 'HTML-escaped' }),
  is_read: bool(),
  created_at: str({ format: 'date-time' }),
});
export const MARKED = obj({ marked: int({ description: 'the number of ids sent' }) });
export const MARKED_ALL = obj({ marked_all: { const: true } });
export const BANNED = obj({ banned: { const: true } });
export const UNBANNED = obj({ unbanned: { const: true } });
export const LOG_ENTRY = obj({ time: str({ format: 'date-time' }), level: str(), message: str(), context: orNull(str()) }, ['context'], {
  additionalProperties: true,
});
