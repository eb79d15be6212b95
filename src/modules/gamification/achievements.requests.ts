/**
 * Bodies of the challenge routes (social-routes §15), read by hand, each with
 * the JSON Schema of what it accepts.
 */
import { CHALLENGE_TYPES, type ChallengeCriteria, type ChallengeType, MAX_TARGET } from '../../aggregates/gamification/challenges';
import { DomainError } from '../../aggregates/shared/domain-error';

const record = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

export const MAX_INCREMENT = 1000;
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 2000;
export const ACTION_MAX = 100;
export const MAX_REWARD = 1_000_000;

export const PROGRESS_BODY_SCHEMA = {
  type: 'object',
  properties: { increment: { anyOf: [{ type: 'integer', minimum: 1, maximum: MAX_INCREMENT }, { type: 'null' }], description: 'default 1' } },
};

/** The increment of POST /challenges/{id}/progress: default 1; 400 `increment must be an integer from 1 to 1000`. */
export function progressRequest(raw: unknown): number {
  const increment = record(raw).increment ?? 1;
  if (typeof increment !== 'number' || !Number.isInteger(increment) || increment < 1 || increment > MAX_INCREMENT) {
    throw new DomainError('invalid', `increment must be an integer from 1 to ${MAX_INCREMENT}`);
  }
  return increment;
}

const TIMESTAMP = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$';
const TIMESTAMP_RE = new RegExp(TIMESTAMP);
const reward = { anyOf: [{ type: 'number', minimum: 0, maximum: MAX_REWARD }, { type: 'null' }], description: 'default 0' };

export const CHALLENGE_BODY_SCHEMA = {
  type: 'object',
  required: ['title', 'ends_at'],
  properties: {
    title: { type: 'string', pattern: '\\S', maxLength: TITLE_MAX },
    description: { anyOf: [{ type: 'string', maxLength: DESCRIPTION_MAX }, { type: 'null' }] },
    challenge_type: { anyOf: [{ enum: [...CHALLENGE_TYPES] }, { type: 'null' }], description: 'default special' },
    criteria: {
      anyOf: [
        {
          type: 'object',
          properties: {
            action: { type: 'string', maxLength: ACTION_MAX },
            target: { type: 'integer', minimum: 1, maximum: MAX_TARGET, description: 'default 10' },
          },
        },
        { type: 'null' },
      ],
    },
    reward_pulse: reward,
    reward_spark: reward,
    reward_signal: reward,
    reward_xp: reward,
    starts_at: { anyOf: [{ type: 'string', pattern: TIMESTAMP }, { type: 'null' }], description: 'ISO 8601 with a zone; default now' },
    ends_at: { type: 'string', pattern: TIMESTAMP, description: 'ISO 8601 with a zone, after starts_at' },
  },
};

export interface ChallengeRequest {
  title: string;
  description: string;
  challengeType: ChallengeType;
  criteria: ChallengeCriteria;
  rewards: { pulse: number; spark: number; signal: number; xp: number };
  startsAt: string | null;
  endsAt: string;
}

function timestamp(value: unknown, field: string): string {
  if (typeof value !== 'string' || !TIMESTAMP_RE.test(value) || !Number.isFinite(Date.parse(value))) throw new DomainError('invalid', `${field} must be an ISO 8601 timestamp with a zone`);
  return new Date(Date.parse(value)).toISOString();
}

function rewardOf(value: unknown, field: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_REWARD) throw new DomainError('invalid', `${field} must be a number from 0 to ${MAX_REWARD}`);
  return value;
}

function criteriaOf(value: unknown): ChallengeCriteria {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new DomainError('invalid', 'criteria must be an object');
  const { action, target } = value as Record<string, unknown>;
  const criteria: ChallengeCriteria = {};
  if (action !== undefined) {
    if (typeof action !== 'string' || [...action].length > ACTION_MAX) throw new DomainError('invalid', `criteria.action must be a string of at most ${ACTION_MAX} characters`);
    criteria.action = action;
  }
  if (target !== undefined) {
    if (typeof target !== 'number' || !Number.isInteger(target) || target < 1 || target > MAX_TARGET) throw new DomainError('invalid', `criteria.target must be an integer from 1 to ${MAX_TARGET}`);
    criteria.target = target;
  }
  return criteria;
}

/** POST /challenges: 400 `title is required`, `ends_at must be …`, then the optional fields. */
export function challengeRequest(raw: unknown): ChallengeRequest {
  const body = record(raw);
  const { title } = body;
  if (typeof title !== 'string' || !title.trim()) throw new DomainError('invalid', 'title is required');
  if ([...title].length > TITLE_MAX) throw new DomainError('invalid', `title must be at most ${TITLE_MAX} characters`);
  const endsAt = timestamp(body.ends_at, 'ends_at');
  const description = body.description ?? '';
  if (typeof description !== 'string' || [...description].length > DESCRIPTION_MAX) throw new DomainError('invalid', `description must be a string of at most ${DESCRIPTION_MAX} characters`);
  const type = body.challenge_type ?? 'special';
  if (typeof type !== 'string' || !(CHALLENGE_TYPES as readonly string[]).includes(type)) throw new DomainError('invalid', `challenge_type must be one of ${CHALLENGE_TYPES.join(', ')}`);
  return {
    title: title.trim(),
    description,
    challengeType: type as ChallengeType,
    criteria: criteriaOf(body.criteria),
    rewards: { pulse: rewardOf(body.reward_pulse, 'reward_pulse'), spark: rewardOf(body.reward_spark, 'reward_spark'), signal: rewardOf(body.reward_signal, 'reward_signal'), xp: rewardOf(body.reward_xp, 'reward_xp') },
    startsAt: body.starts_at === undefined || body.starts_at === null ? null : timestamp(body.starts_at, 'starts_at'),
    endsAt,
  };
}

/** An id a challenge could have: a rotating one's or an admin's (`ch_` + 32 hex); anything else names none. */
export function looksLikeChallengeId(id: string): boolean {
  return /^(daily|weekly)-\d{4}-\d{2}-\d{2}$/.test(id) || /^ch_[0-9a-f]{32}$/.test(id);
}
