/** Query strings of the audit views (social-routes §20). */
import { DomainError } from '../../aggregates/shared/domain-error';
import type { JsonSchema } from '../common/openapi';
import { type PageRule, pageQuery, pageQuerySchemas } from '../common/paging';
import { AGENT_TYPES, type AgentType } from './audit-views.queries';

export const TIMELINE_LIMIT: PageRule = { defaultLimit: 50, cap: 200 };
export const ACTIVITY_LIMIT: PageRule = { defaultLimit: 30, cap: 100 };
export const AGENT_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

const oneOf = <T extends string>(value: unknown, field: string, allowed: readonly T[], fallback: T): T => {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw new DomainError('invalid', `${field} must be one of ${allowed.join(', ')}`);
  return value as T;
};

export const agentType = (query: Record<string, unknown> | undefined): AgentType => oneOf(query?.type, 'type', AGENT_TYPES, 'all');
export const goalStatus = (query: Record<string, unknown> | undefined): 'active' | 'all' => oneOf(query?.status, 'status', ['active', 'all'] as const, 'active');
export const limitOf = (query: Record<string, unknown> | undefined, rule: PageRule): number => pageQuery({ limit: query?.limit }, rule).limit;

/** `days`, d7≤30: a whole number from 1; above 30 is 30. */
export function usageDays(query: Record<string, unknown> | undefined): number {
  const value = query?.days;
  if (value === undefined || value === '') return 7;
  if (typeof value !== 'string' || !/^\d{1,6}$/.test(value.trim()) || Number(value) < 1) throw new DomainError('invalid', 'days must be a whole number from 1');
  return Math.min(Number(value), 30);
}

export const AUDIT_VIEW_SCHEMAS: Record<string, JsonSchema> = {
  type: { enum: [...AGENT_TYPES], default: 'all' },
  status: { enum: ['active', 'all'], default: 'active' },
  days: { type: 'integer', minimum: 1, default: 7, description: 'capped at 30' },
  timelineLimit: pageQuerySchemas(TIMELINE_LIMIT).limit,
  activityLimit: pageQuerySchemas(ACTIVITY_LIMIT).limit,
};
