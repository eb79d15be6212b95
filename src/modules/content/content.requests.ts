/**
 * Request bodies of the content routes (social-routes §4–§6, §12), read by
 * hand: the contract fixes the texts (`title required`, `Title too long (max
 * 300 characters)`, ...) and the order of the checks. Each reader throws a
 * 400 DomainError or returns typed values; unknown fields are ignored. Text
 * is stored as written (escaped on output).
 */
import type { PostEdits, PostFields } from '../../aggregates/content/content.events';
import { type Body, flag, invalid, objectBody } from '../common/body-fields';
import { flagSchema, type JsonSchema, list, obj, oneOf, orNull, str } from '../common/openapi';

export const TITLE_MAX = 300;
export const POST_CONTENT_MAX = 40_000;
export const COMMENT_MAX = 10_000;
export const CONTENT_TYPES = ['text', 'code', 'recipe', 'media', 'task_request', 'thought_experiment'] as const;
const URL_MAX = 2_048;
const SHORT_MAX = 200;
const LONG_MAX = 10_000;

const length = (text: string): number => [...text].length;

function optionalString(body: Body, field: string, max: number): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(`${field} must be a string`);
  if (length(value) > max) throw invalid(`${field} must be at most ${max} characters`);
  return value;
}

const optionalStringSchema = (max: number): JsonSchema => orNull(str({ maxLength: max }));

/** `title` or its alias `caption` (both checked when given): the first one given. */
function titleOf(body: Body, required: boolean): string | undefined {
  for (const field of ['title', 'caption']) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw invalid('title must be a string');
    if (length(value) > TITLE_MAX) throw invalid(`Title too long (max ${TITLE_MAX} characters)`);
  }
  const raw = (body.title ?? body.caption) as string | undefined | null;
  if (raw === undefined || raw === null || raw.trim() === '') {
    if (required) throw invalid('title required');
    return undefined;
  }
  return raw;
}

function contentOf(body: Body): string | undefined {
  const raw = body.content;
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw invalid('content must be a string');
  if (length(raw) > POST_CONTENT_MAX) throw invalid(`Content too long (max ${POST_CONTENT_MAX} characters)`);
  return raw;
}

function dynamicLayoutOf(body: Body): unknown {
  const value = body.dynamic_layout;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('dynamic_layout must be an object');
  if (JSON.stringify(value).length > LONG_MAX) throw invalid(`dynamic_layout must be at most ${LONG_MAX} characters of JSON`);
  return value;
}

export interface PostRequest {
  fields: PostFields;
  /** a community's name; an unknown one leaves the post without a community */
  community: string | null;
}

export function postRequest(raw: unknown): PostRequest {
  const body = objectBody(raw);
  const title = titleOf(body, true) as string;
  const content = contentOf(body) ?? '';
  const contentType = body.content_type ?? 'text';
  if (typeof contentType !== 'string' || !(CONTENT_TYPES as readonly string[]).includes(contentType)) {
    throw invalid(`content_type must be one of ${CONTENT_TYPES.join(', ')}`);
  }
  const mediaUrls = body.media_urls ?? [];
  if (!Array.isArray(mediaUrls) || mediaUrls.length > 20 || mediaUrls.some((u) => typeof u !== 'string' || length(u) > URL_MAX)) {
    throw invalid(`media_urls must be a list of at most 20 strings of at most ${URL_MAX} characters`);
  }
  return {
    community: optionalString(body, 'community', SHORT_MAX),
    fields: {
      title,
      content,
      content_type: contentType,
      code_language: optionalString(body, 'code_language', SHORT_MAX),
      recipe_ref: null,
      media_urls: mediaUrls as string[],
      link_url: optionalString(body, 'link_url', URL_MAX),
      source_channel: optionalString(body, 'source_channel', SHORT_MAX),
      intent_category: optionalString(body, 'intent_category', SHORT_MAX),
      hypothesis: optionalString(body, 'hypothesis', LONG_MAX),
      expected_outcome: optionalString(body, 'expected_outcome', LONG_MAX),
      is_thought_experiment: flag(body, 'is_thought_experiment') ?? false,
      dynamic_layout: dynamicLayoutOf(body),
    },
  };
}

const TITLE_SCHEMA = str({ maxLength: TITLE_MAX, pattern: '\\S' });
const DYNAMIC_LAYOUT_SCHEMA = orNull({ type: 'object' });

export const POST_BODY_SCHEMA: JsonSchema = obj(
  {
    title: optionalStringSchema(TITLE_MAX),
    caption: optionalStringSchema(TITLE_MAX),
    content: optionalStringSchema(POST_CONTENT_MAX),
    content_type: orNull(oneOf(CONTENT_TYPES)),
    community: optionalStringSchema(SHORT_MAX),
    code_language: optionalStringSchema(SHORT_MAX),
    media_urls: orNull(list(str({ maxLength: URL_MAX }), { maxItems: 20 })),
    link_url: optionalStringSchema(URL_MAX),
    source_channel: optionalStringSchema(SHORT_MAX),
    intent_category: optionalStringSchema(SHORT_MAX),
    hypothesis: optionalStringSchema(LONG_MAX),
    expected_outcome: optionalStringSchema(LONG_MAX),
    is_thought_experiment: flagSchema(),
    dynamic_layout: DYNAMIC_LAYOUT_SCHEMA,
  },
  ['title', 'caption', 'content', 'content_type', 'community', 'code_language', 'media_urls', 'link_url', 'source_channel', 'intent_category', 'hypothesis', 'expected_outcome', 'is_thought_experiment', 'dynamic_layout'],
  {
    description: '`title` (or `caption`) is required: 400 `title required`; at most 300 characters',
    anyOf: [{ required: ['title'], properties: { title: TITLE_SCHEMA } }, { required: ['caption'], properties: { title: { type: 'null' }, caption: TITLE_SCHEMA } }],
  },
);

/** PATCH /posts/{id}: only the fields given change; no length checks beyond the stored limits. */
export function postEditRequest(raw: unknown): PostEdits {
  const body = objectBody(raw);
  const changes: PostEdits = {};
  const title = titleOf(body, false);
  if (title !== undefined) changes.title = title;
  const content = contentOf(body);
  if (content !== undefined) changes.content = content;
  for (const field of ['intent_category', 'hypothesis', 'expected_outcome'] as const) {
    const value = optionalString(body, field, field === 'intent_category' ? SHORT_MAX : LONG_MAX);
    if (value !== null) changes[field] = value;
  }
  const thought = flag(body, 'is_thought_experiment');
  if (thought !== undefined) changes.is_thought_experiment = thought;
  if (body.dynamic_layout !== undefined && body.dynamic_layout !== null) changes.dynamic_layout = dynamicLayoutOf(body);
  return changes;
}

export const POST_EDIT_BODY_SCHEMA: JsonSchema = obj(
  {
    title: orNull(str({ maxLength: TITLE_MAX })),
    caption: orNull(str({ maxLength: TITLE_MAX })),
    content: optionalStringSchema(POST_CONTENT_MAX),
    intent_category: optionalStringSchema(SHORT_MAX),
    hypothesis: optionalStringSchema(LONG_MAX),
    expected_outcome: optionalStringSchema(LONG_MAX),
    is_thought_experiment: flagSchema(),
    dynamic_layout: DYNAMIC_LAYOUT_SCHEMA,
  },
  ['title', 'caption', 'content', 'intent_category', 'hypothesis', 'expected_outcome', 'is_thought_experiment', 'dynamic_layout'],
);

/** POST …/report: reason (required, at most 50 characters as the original's column), details. */
export function reportRequest(raw: unknown): { reason: string; details: string | null } {
  const body = objectBody(raw);
  const reason = body.reason;
  if (typeof reason !== 'string' || reason.trim() === '') throw invalid('reason required');
  if (length(reason) > 50) throw invalid('reason must be at most 50 characters');
  return { reason, details: optionalString(body, 'details', LONG_MAX) };
}

export const REPORT_BODY_SCHEMA: JsonSchema = obj({ reason: str({ pattern: '\\S', maxLength: 50 }), details: optionalStringSchema(LONG_MAX) }, ['details']);

/** A comment's text: `content` or its alias `text`, required and at most 10,000 characters (PATCH: empty leaves it unchanged). */
export function commentRequest(raw: unknown, required = true): { content: string; parentId: string | null } {
  const body = objectBody(raw);
  for (const field of ['content', 'text']) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw invalid('content must be a string');
    if (length(value) > COMMENT_MAX) throw invalid(`Comment too long (max ${COMMENT_MAX} characters)`);
  }
  const content = ((body.content ?? body.text) as string | undefined | null) ?? '';
  if (required && content.trim() === '') throw invalid('content required');
  const parent = body.parent_id ?? body.parent_comment_id;
  let parentId: string | null = null;
  if (parent !== undefined && parent !== null && parent !== 0 && parent !== '0' && parent !== '') {
    if (typeof parent !== 'string' || length(parent) > SHORT_MAX) throw invalid('parent_id must be a comment id');
    parentId = parent;
  }
  return { content, parentId };
}

const COMMENT_TEXT = str({ maxLength: COMMENT_MAX, pattern: '\\S' });
const PARENT_SCHEMA = orNull({ anyOf: [str({ maxLength: SHORT_MAX }), { const: 0 }] });

export const COMMENT_BODY_SCHEMA: JsonSchema = obj(
  { content: optionalStringSchema(COMMENT_MAX), text: optionalStringSchema(COMMENT_MAX), parent_id: PARENT_SCHEMA, parent_comment_id: PARENT_SCHEMA },
  ['content', 'text', 'parent_id', 'parent_comment_id'],
  {
    description: '`content` (or `text`) is required: 400 `content required`; at most 10,000 characters',
    anyOf: [{ required: ['content'], properties: { content: COMMENT_TEXT } }, { required: ['text'], properties: { content: { type: 'null' }, text: COMMENT_TEXT } }],
  },
);

export const COMMENT_EDIT_BODY_SCHEMA: JsonSchema = obj(
  { content: orNull(str({ maxLength: COMMENT_MAX })), text: orNull(str({ maxLength: COMMENT_MAX })) },
  ['content', 'text'],
);

/** POST /communities. */
export interface CommunityRequest {
  name: string;
  displayName: string;
  description: string;
  rules: string;
  isPrivate: boolean;
}

const COMMUNITY_NAME = /^[A-Za-z0-9_-]{2,50}$/;

export function communityRequest(raw: unknown): CommunityRequest {
  const body = objectBody(raw);
  const name = body.name;
  if (typeof name !== 'string' || name.trim() === '') throw invalid('name required');
  if (!COMMUNITY_NAME.test(name.trim())) throw invalid('name must be 2 to 50 letters, digits, _ or -');
  const trimmed = name.trim();
  return {
    name: trimmed,
    displayName: optionalString(body, 'display_name', SHORT_MAX) ?? trimmed,
    description: optionalString(body, 'description', LONG_MAX) ?? '',
    rules: optionalString(body, 'rules', LONG_MAX) ?? '',
    isPrivate: flag(body, 'is_private') ?? false,
  };
}

export const COMMUNITY_BODY_SCHEMA: JsonSchema = obj(
  {
    name: str({ pattern: `^\\s*${COMMUNITY_NAME.source.slice(1, -1)}\\s*$` }),
    display_name: optionalStringSchema(SHORT_MAX),
    description: optionalStringSchema(LONG_MAX),
    rules: optionalStringSchema(LONG_MAX),
    is_private: flagSchema(),
  },
  ['display_name', 'description', 'rules', 'is_private'],
);

export function communityEditRequest(raw: unknown): { display_name?: string; description?: string; rules?: string } {
  const body = objectBody(raw);
  const changes: { display_name?: string; description?: string; rules?: string } = {};
  const displayName = optionalString(body, 'display_name', SHORT_MAX);
  if (displayName !== null) changes.display_name = displayName;
  const description = optionalString(body, 'description', LONG_MAX);
  if (description !== null) changes.description = description;
  const rules = optionalString(body, 'rules', LONG_MAX);
  if (rules !== null) changes.rules = rules;
  return changes;
}

export const COMMUNITY_EDIT_BODY_SCHEMA: JsonSchema = obj(
  { display_name: optionalStringSchema(SHORT_MAX), description: optionalStringSchema(LONG_MAX), rules: optionalStringSchema(LONG_MAX) },
  ['display_name', 'description', 'rules'],
);

/** POST /communities/{name}/moderators. */
export function userIdRequest(raw: unknown): string {
  const body = objectBody(raw);
  const id = body.user_id;
  if (typeof id !== 'string' || id.trim() === '' || length(id) > SHORT_MAX) throw invalid('user_id required');
  return id.trim();
}

export const USER_ID_BODY_SCHEMA: JsonSchema = obj({ user_id: str({ pattern: '\\S', maxLength: SHORT_MAX }) });

/** PATCH /moderation/reports/{id} and POST …/resolve: status, `reviewed` by default; any text is accepted (§12). */
export function reviewRequest(raw: unknown): string {
  const body = objectBody(raw);
  return optionalString(body, 'status', 50) ?? 'reviewed';
}

export const REVIEW_BODY_SCHEMA: JsonSchema = obj({ status: optionalStringSchema(50) }, ['status']);

/** POST /feeds/preview and /feeds/import: `url` (an http(s) URL), and for an import `community_id` and `limit` (d10≤50). */
export function feedRequest(raw: unknown): { url: string; communityId: string | null; limit: number } {
  const body = objectBody(raw);
  const url = body.url;
  if (typeof url !== 'string' || url.trim() === '') throw invalid('url required');
  if (length(url) > URL_MAX) throw invalid(`url must be at most ${URL_MAX} characters`);
  const limit = body.limit ?? 10;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) throw invalid('limit must be a positive integer');
  return { url: url.trim(), communityId: optionalString(body, 'community_id', SHORT_MAX), limit: Math.min(limit, 50) };
}

/** POST /feeds/subscribe: url required, community_id optional, auto_import default true. */
export function feedSubscribeRequest(raw: unknown): { url: string; communityId: string | null; autoImport: boolean } {
  const { url, communityId } = feedRequest({ ...objectBody(raw), limit: undefined });
  return { url, communityId, autoImport: flag(objectBody(raw), 'auto_import') ?? true };
}

export const FEED_SUBSCRIBE_BODY_SCHEMA: JsonSchema = obj(
  {
    url: str({ pattern: '\\S', maxLength: URL_MAX, description: 'an http(s) URL of an RSS 2.0, Atom 1.0 or JSON Feed document' }),
    community_id: optionalStringSchema(SHORT_MAX),
    auto_import: flagSchema('default true: the poller imports new items as the subscriber’s posts'),
  },
  ['community_id', 'auto_import'],
);

export const FEED_BODY_SCHEMA: JsonSchema = obj(
  {
    url: str({ pattern: '\\S', maxLength: URL_MAX, description: 'an http(s) URL of an RSS 2.0, Atom 1.0 or JSON Feed document' }),
    community_id: optionalStringSchema(SHORT_MAX),
    limit: orNull({ type: 'integer', minimum: 1, default: 10, description: 'import: at most 50' }),
  },
  ['community_id', 'limit'],
);
