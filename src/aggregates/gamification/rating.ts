/**
 * One rating (social-routes §15): what `rater` scored `rated` on one
 * dimension in one context. Each (rater, rated, context type, context id,
 * dimension) has its own stream, the consistency boundary of "one rating per
 * key": a repeat revises the rating, and concurrent repeats serialise on the
 * stream, so there are never two.
 *
 * The rater's weight (trust.ts) is decided by the handler from the rater's
 * wallet and recorded in the event; a revision records the weight it replaces,
 * so the trust read model moves by the difference.
 */
import { createHash } from 'node:crypto';
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import { DIMENSIONS, type Dimension } from './trust';

export const CANNOT_RATE_YOURSELF = 'Cannot rate yourself';
export const SCORE_RANGE = 'score must be an integer from 1 to 5';
export const COMMENT_MAX = 2000;

export interface RatingFields {
  rating_id: string;
  rater_id: string;
  rated_id: string;
  context_type: string;
  context_id: string;
  dimension: Dimension;
  score: number;
  comment: string | null;
  /** the rater's wallet signal when the score was given */
  rater_signal: number;
  /** clamp(rater_signal ÷ 10, 0.5, 3) */
  weight: number;
}

/** What a rating shows: its key, its last score and comment, the weight they were given with, when. */
export type RatingRecord = Omit<RatingFields, 'rating_id' | 'rater_signal'> & { created_at: string; updated_at: string };

export type RatingEvent =
  | { type: 'RatingGiven'; data: RatingFields & { created_at: string } }
  /** a repeat of the key: the new score, comment and weight, and the score and weight they replace */
  | { type: 'RatingRevised'; data: RatingFields & { previous_score: number; previous_weight: number; created_at: string; updated_at: string } };

export type RatingState = { status: 'none' } | { status: 'rated'; score: number; comment: string | null; weight: number; createdAt: string; updatedAt: string };

export interface RatingKey {
  raterId: string;
  ratedId: string;
  contextType: string;
  contextId: string;
  dimension: Dimension;
}

export type RatingCommand = { kind: 'rate'; score: number; comment: string | null; raterSignal: number; weight: number } & RatingKey;

/** The rating's id: a digest of its key, so the key names one stream whatever characters its parts hold. */
export function ratingId(key: RatingKey): string {
  return createHash('sha256')
    .update(JSON.stringify([key.raterId, key.ratedId, key.contextType, key.contextId, key.dimension]), 'utf8')
    .digest('hex')
    .slice(0, 32);
}

export function ratingStreamId(id: string): string {
  return `rating-${id}`;
}

export function isScore(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 5;
}

export const ratingDecider: Decider<RatingState, RatingCommand, RatingEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'RatingGiven':
        return { status: 'rated', score: event.data.score, comment: event.data.comment, weight: event.data.weight, createdAt: event.data.created_at, updatedAt: event.data.created_at };
      case 'RatingRevised':
        return { status: 'rated', score: event.data.score, comment: event.data.comment, weight: event.data.weight, createdAt: event.data.created_at, updatedAt: event.data.updated_at };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'rate': {
        if (command.raterId === command.ratedId) throw new DomainError('invalid', CANNOT_RATE_YOURSELF);
        if (!isScore(command.score)) throw new DomainError('invalid', SCORE_RANGE);
        if (!DIMENSIONS.includes(command.dimension)) throw new DomainError('invalid', `dimension must be one of ${DIMENSIONS.join(', ')}`);
        const fields: RatingFields = {
          rating_id: ratingId(command),
          rater_id: command.raterId,
          rated_id: command.ratedId,
          context_type: command.contextType,
          context_id: command.contextId,
          dimension: command.dimension,
          score: command.score,
          comment: command.comment,
          rater_signal: command.raterSignal,
          weight: command.weight,
        };
        const at = now.toISOString();
        if (state.status === 'none') return [{ type: 'RatingGiven', data: { ...fields, created_at: at } }];
        if (state.score === command.score && state.comment === command.comment && state.weight === command.weight) return [];
        return [{ type: 'RatingRevised', data: { ...fields, previous_score: state.score, previous_weight: state.weight, created_at: state.createdAt, updated_at: at } }];
      }
      default:
        return assertNever(command.kind);
    }
  },
};
