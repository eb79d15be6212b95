/**
 * Bodies of the gamification routes (social-routes §15), read by hand in the
 * contract's order of checks, each with the JSON Schema of what it accepts.
 */
import { COMMENT_MAX, isScore, SCORE_RANGE } from '../../aggregates/gamification/rating';
import { DIMENSIONS, type Dimension } from '../../aggregates/gamification/trust';
import { DomainError } from '../../aggregates/shared/domain-error';

const CONTEXT_MAX = 100;
/** The context of a rating given without one. */
export const GENERAL_CONTEXT = 'general';

const record = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

export const RATING_BODY_SCHEMA = {
  type: 'object',
  required: ['rated_id', 'dimension', 'score'],
  properties: {
    rated_id: { type: 'string', pattern: '\\S' },
    context_type: { anyOf: [{ type: 'string', pattern: '\\S', maxLength: CONTEXT_MAX }, { type: 'null' }], description: `default ${GENERAL_CONTEXT}` },
    context_id: { anyOf: [{ type: 'string', pattern: '\\S', maxLength: CONTEXT_MAX }, { type: 'null' }], description: `default ${GENERAL_CONTEXT}` },
    dimension: { enum: [...DIMENSIONS] },
    score: { type: 'integer', minimum: 1, maximum: 5 },
    comment: { anyOf: [{ type: 'string', maxLength: COMMENT_MAX }, { type: 'null' }] },
  },
};

export interface RatingRequest {
  ratedId: string;
  contextType: string;
  contextId: string;
  dimension: Dimension;
  score: number;
  comment: string | null;
}

function contextPart(value: unknown, field: string): string {
  if (value === undefined || value === null) return GENERAL_CONTEXT;
  if (typeof value !== 'string' || !value.trim() || [...value].length > CONTEXT_MAX) throw new DomainError('invalid', `${field} must be a string of at most ${CONTEXT_MAX} characters`);
  return value.trim();
}

/** 400 `rated_id is required`, `dimension must be one of …`, `score must be an integer from 1 to 5`, then the optional fields. */
export function ratingRequest(raw: unknown): RatingRequest {
  const body = record(raw);
  const ratedId = body.rated_id;
  if (typeof ratedId !== 'string' || !ratedId.trim()) throw new DomainError('invalid', 'rated_id is required');
  if (typeof body.dimension !== 'string' || !(DIMENSIONS as readonly string[]).includes(body.dimension)) {
    throw new DomainError('invalid', `dimension must be one of ${DIMENSIONS.join(', ')}`);
  }
  if (!isScore(body.score)) throw new DomainError('invalid', SCORE_RANGE);
  const comment = body.comment ?? null;
  if (comment !== null && (typeof comment !== 'string' || [...comment].length > COMMENT_MAX)) throw new DomainError('invalid', `comment must be a string of at most ${COMMENT_MAX} characters`);
  return {
    ratedId: ratedId.trim(),
    contextType: contextPart(body.context_type, 'context_type'),
    contextId: contextPart(body.context_id, 'context_id'),
    dimension: body.dimension as Dimension,
    score: body.score,
    comment: typeof comment === 'string' && comment.trim() ? comment : null,
  };
}

export const STEP_BODY_SCHEMA = { type: 'object', required: ['step'], properties: { step: { type: 'string', pattern: '\\S', description: 'one of the eight step keys; an unknown one answers 200 with data `{error: "Unknown step"}`' } } };

/** The step's key as sent; 400 `step is required` without one (an unknown key is the handler's 200 `{error: "Unknown step"}`). */
export function stepRequest(raw: unknown): string {
  const step = record(raw).step;
  if (typeof step !== 'string' || !step.trim()) throw new DomainError('invalid', 'step is required');
  return step.trim();
}
