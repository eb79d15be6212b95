/**
 * The query string of GET /audit/events: optional filters (actor,
 * correlation_id, stream, type), each one string of at most 200 characters,
 * and the page (d50≤200).
 */
import { DomainError } from '../../aggregates/shared/domain-error';
import type { JsonSchema } from '../common/openapi';
import { type Page, type PageRule, pageQuery, pageQuerySchemas } from '../common/paging';

export const AUDIT_EVENTS_PAGE_RULE: PageRule = { defaultLimit: 50, cap: 200 };

export interface AuditEventsQuery {
  actor?: string;
  correlationId?: string;
  stream?: string;
  type?: string;
  page: Page;
}

const FILTERS = { actor: 'actor', correlation_id: 'correlationId', stream: 'stream', type: 'type' } as const;
const MAX_LENGTH = 200;

export function readAuditEventsQuery(query: Record<string, unknown> | undefined): AuditEventsQuery {
  const result: AuditEventsQuery = { page: pageQuery(query, AUDIT_EVENTS_PAGE_RULE) };
  for (const [param, field] of Object.entries(FILTERS) as [keyof typeof FILTERS, (typeof FILTERS)[keyof typeof FILTERS]][]) {
    const value = query?.[param];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string' || value.length > MAX_LENGTH) throw new DomainError('invalid', `${param} must be one string of at most ${MAX_LENGTH} characters`);
    result[field] = value;
  }
  return result;
}

const filter = (description: string): JsonSchema => ({ type: 'string', maxLength: MAX_LENGTH, description });

export const AUDIT_EVENTS_QUERY_SCHEMAS: Record<string, JsonSchema> = {
  actor: filter('user id (or `system:<component>`) that caused the events'),
  correlation_id: filter('the correlation id shared by the events of one request'),
  stream: filter('one stream id'),
  type: filter('one event type'),
  ...pageQuerySchemas(AUDIT_EVENTS_PAGE_RULE),
};
