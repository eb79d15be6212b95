/**
 * Bodies of the referral routes (social-routes §14), each with the JSON
 * Schema of what it accepts.
 */
import { DomainError } from '../../aggregates/shared/domain-error';

const record = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

const CODE_MAX = 64;
const TYPE_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;
const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
const BASE_URL_MAX = 500;
/** an http(s) URL without query or fragment, or '' (the default) */
const BASE_URL_PATTERN = /^$|^https?:\/\/[^\s?#/]+(\/[^\s?#]*)?$/;

export const REFERRAL_USE_BODY_SCHEMA = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string', pattern: '\\S', maxLength: CODE_MAX, description: 'a referral code; case does not matter' } },
};

/** 400 `code is required` when it is missing or not a non-empty string; any other string is looked up (an unknown one is no referral, not an error). */
export function referralUseRequest(raw: unknown): { code: string } {
  const code = record(raw).code;
  if (typeof code !== 'string' || code.trim() === '') throw new DomainError('invalid', 'code is required');
  if (code.length > CODE_MAX) throw new DomainError('invalid', `code must be at most ${CODE_MAX} characters`);
  return { code };
}

export const SHARE_LINK_BODY_SCHEMA = {
  type: 'object',
  required: ['target_type', 'target_id'],
  properties: {
    target_type: { type: 'string', pattern: TYPE_PATTERN.source, description: 'e.g. post, community, agent, user' },
    target_id: { type: 'string', pattern: ID_PATTERN.source },
    base_url: { anyOf: [{ type: 'string', maxLength: BASE_URL_MAX, pattern: BASE_URL_PATTERN.source, description: 'an http(s) URL; default SHARE_BASE_URL' }, { type: 'null' }] },
  },
};

export interface ShareLinkRequest {
  targetType: string;
  targetId: string;
  baseUrl: string | null;
}

/** 400 for a missing or malformed target_type or target_id, or a base_url that is not an http(s) URL. */
export function shareLinkRequest(raw: unknown): ShareLinkRequest {
  const body = record(raw);
  const { target_type: targetType, target_id: targetId } = body;
  if (typeof targetType !== 'string' || !TYPE_PATTERN.test(targetType)) {
    throw new DomainError('invalid', 'target_type is required: 1-32 lowercase letters, digits, _ or -, starting with a letter');
  }
  if (typeof targetId !== 'string' || !ID_PATTERN.test(targetId)) throw new DomainError('invalid', 'target_id is required: 1-128 letters, digits, _ . : -');
  const base = body.base_url ?? null;
  if (base === null || base === '') return { targetType, targetId, baseUrl: null };
  if (typeof base !== 'string' || base.length > BASE_URL_MAX || !BASE_URL_PATTERN.test(base) || !URL.canParse(base)) {
    throw new DomainError('invalid', 'base_url must be an http(s) URL without query or fragment');
  }
  return { targetType, targetId, baseUrl: base.replace(/\/+$/, '') };
}

/** link = `<base_url>/<type>/<id>?ref=<code>` (§14). */
export const shareLink = (baseUrl: string, targetType: string, targetId: string, code: string): string =>
  `${baseUrl}/${targetType}/${encodeURIComponent(targetId)}?ref=${code}`;
