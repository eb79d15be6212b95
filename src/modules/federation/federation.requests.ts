/** Bodies and query parameters of the federation routes. */
import { IsIn, IsString, Matches } from 'class-validator';
import { DomainError } from '../../aggregates/shared/domain-error';
import { MAX_LOG_WAIT_SECONDS } from '../../config/federation.config';
import type { JsonSchema } from '../common/openapi';

export const NODE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const TIERS = ['regional', 'central', 'flat'] as const;

/** POST /federation/nodes/register: signed (x-node-*) by the key it registers, as `node_id`. */
export class RegisterNodeRequest {
  @IsString()
  @Matches(NODE_ID, { message: 'node_id must be 1-128 letters, digits or _ . : -' })
  node_id!: string;

  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'public_key must be 64 lower-case hex characters (a raw Ed25519 key)' })
  public_key!: string;

  @IsString()
  @Matches(/^https?:\/\/[^\s]{1,2000}$/, { message: 'url must be an http(s) URL' })
  url!: string;

  @IsString()
  @IsIn(TIERS as unknown as string[], { message: `tier must be one of ${TIERS.join(', ')}` })
  tier!: (typeof TIERS)[number];
}

/** GET /federation/log: events after `after`, at most `limit`, waiting up to `wait` seconds when there are none. */
export interface LogQuery {
  after: number;
  limit: number;
  waitSeconds: number;
}

export const LOG_PAGE_CAP = 1000;

export const LOG_QUERY_SCHEMAS: Record<'after' | 'limit' | 'wait', JsonSchema> = {
  after: { type: 'integer', minimum: 0, default: 0, description: 'the upstream position to read after (0: from the start)' },
  limit: { type: 'integer', minimum: 1, maximum: LOG_PAGE_CAP, default: 500 },
  wait: { type: 'integer', minimum: 0, maximum: MAX_LOG_WAIT_SECONDS, default: 0, description: 'seconds to wait for new events when there are none after `after` (long poll)' },
};

function whole(value: unknown, field: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim())) throw new DomainError('invalid', `${field} must be a non-negative integer`);
  const n = Number(value.trim());
  if (n < min || n > max) throw new DomainError('invalid', `${field} must be from ${min} to ${max}`);
  return n;
}

export function readLogQuery(query: Record<string, unknown> | undefined): LogQuery {
  return {
    after: whole(query?.after, 'after', 0, 0, Number.MAX_SAFE_INTEGER),
    limit: whole(query?.limit, 'limit', 500, 1, LOG_PAGE_CAP),
    waitSeconds: whole(query?.wait, 'wait', 0, 0, MAX_LOG_WAIT_SECONDS),
  };
}
