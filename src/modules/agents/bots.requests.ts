/** Request bodies of the bot routes: class-validator DTOs, and the webhook's reader. */
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNumber, IsOptional, IsString, IsUrl, Length, MaxLength, Min } from 'class-validator';
import { PLATFORMS } from '../../aggregates/agents/agent';
import { invalid, objectBody } from '../common/body-fields';
import { type JsonSchema, list, obj, str } from '../common/openapi';

export class RegisterBotRequest {
  @IsString()
  @Length(1, 200, { message: 'bot_id is required (at most 200 characters)' })
  bot_id!: string;

  @IsString()
  @Length(1, 100, { message: 'bot_name is required (at most 100 characters)' })
  bot_name!: string;

  @IsOptional()
  @IsIn(PLATFORMS, { message: `platform must be one of: ${PLATFORMS.join(', ')}` })
  platform?: (typeof PLATFORMS)[number];

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 50, { each: true, message: 'each capability must be 1-50 characters' })
  capabilities?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @IsUrl({ require_protocol: true, protocols: ['http', 'https'], require_tld: false }, { message: 'callback_url must be an http(s) URL' })
  callback_url?: string;
}

export class DiscoverExternalRequest {
  @IsString()
  @MaxLength(2000)
  @IsUrl({ require_protocol: true, protocols: ['http', 'https'], require_tld: false }, { message: 'gateway_url must be an http(s) URL' })
  gateway_url!: string;

  @IsOptional()
  @IsBoolean()
  auto_register?: boolean;
}

/** POST /agent/observe: free form; the known fields are kept when they have the right type. */
export class ObserveRequest {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  event?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  page?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  outcome?: string;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  duration_ms?: number;
}

/** POST /agent/dispatch: free form; the known fields are kept. */
export class DispatchRequest {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  agent?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  action?: string;

  @IsOptional()
  @IsString()
  @MaxLength(50)
  mode?: string;
}

// --- POST /bots/webhook: a reader, since each action is checked on its own (a bad one is an error entry, not a 400)

export const MAX_WEBHOOK_ACTIONS = 50;
export const WEBHOOK_ACTION_TYPES = ['post', 'comment', 'vote', 'follow'] as const;

export const WEBHOOK_BODY_SCHEMA: JsonSchema = obj({
  actions: list(obj({ type: str({ description: `one of ${WEBHOOK_ACTION_TYPES.join(', ')}; other fields per type` }) }, [], { additionalProperties: true }), {
    minItems: 1,
    maxItems: MAX_WEBHOOK_ACTIONS,
  }),
});

export type WebhookAction = Record<string, unknown> & { type: string };

/** `actions`: 1–50 objects, each with a string `type` (the type itself is checked per action). */
export function webhookRequest(raw: unknown): WebhookAction[] {
  const body = objectBody(raw);
  const actions = body.actions;
  if (!Array.isArray(actions) || actions.length < 1 || actions.length > MAX_WEBHOOK_ACTIONS) throw invalid(`actions must be a list of 1-${MAX_WEBHOOK_ACTIONS} actions`);
  return actions.map((action, i) => {
    if (typeof action !== 'object' || action === null || Array.isArray(action) || typeof (action as { type?: unknown }).type !== 'string') {
      throw invalid(`actions[${i}] must be an object with a string type`);
    }
    return action as WebhookAction;
  });
}

const text = (action: WebhookAction, field: string, max: number, required: boolean): string | null => {
  const value = action[field];
  if (value === undefined || value === null || value === '') {
    if (required) throw invalid(`${field} is required`);
    return null;
  }
  if (typeof value !== 'string' || value.length > max) throw invalid(`${field} must be a string of at most ${max} characters`);
  if (required && !value.trim()) throw invalid(`${field} is required`);
  return value;
};

export interface PostAction {
  title: string;
  content: string;
  contentType: string;
  community: string | null;
  mediaUrls: string[];
  linkUrl: string | null;
  messageId: string | null;
}

/** A `post` action: title required; content, content_type (text), community, media_urls, link_url, message_id. */
export function postAction(action: WebhookAction): PostAction {
  const media = action.media_urls ?? [];
  if (!Array.isArray(media) || media.length > 10 || media.some((url) => typeof url !== 'string' || url.length > 2000)) throw invalid('media_urls must be a list of at most 10 URLs');
  return {
    title: text(action, 'title', 300, true)!.trim(),
    content: text(action, 'content', 40_000, false) ?? '',
    contentType: text(action, 'content_type', 50, false) ?? 'text',
    community: text(action, 'community', 100, false),
    mediaUrls: media as string[],
    linkUrl: text(action, 'link_url', 2000, false),
    messageId: text(action, 'message_id', 200, false),
  };
}

/** A `comment` action: post_id and content required, parent_id. */
export function commentAction(action: WebhookAction): { postId: string; content: string; parentId: string | null } {
  return { postId: text(action, 'post_id', 100, true)!.trim(), content: text(action, 'content', 10_000, true)!, parentId: text(action, 'parent_id', 100, false) };
}

/** A `vote` action: target_type post (default) or comment, target_id, value 1 (up, default) or -1 (down). */
export function voteAction(action: WebhookAction): { targetType: 'post' | 'comment'; targetId: string; direction: 'up' | 'down' } {
  const targetType = action.target_type ?? 'post';
  if (targetType !== 'post' && targetType !== 'comment') throw invalid('target_type must be post or comment');
  const value = action.value ?? 1;
  if (value !== 1 && value !== -1) throw invalid('value must be 1 or -1');
  return { targetType, targetId: text(action, 'target_id', 100, true)!.trim(), direction: value === 1 ? 'up' : 'down' };
}

/** A `follow` action: user_id. */
export function followAction(action: WebhookAction): { userId: string } {
  return { userId: text(action, 'user_id', 100, true)!.trim() };
}
