/**
 * Request bodies of the marketplace routes (social-routes §22), read by hand
 * for the contract's texts. Text is stored as written (escaped on output).
 */
import { LISTING_CATEGORIES, type ListingCategory } from '../../aggregates/marketplace/listing';
import { invalid, objectBody } from '../common/body-fields';
import { int, type JsonSchema, num, obj, oneOf, orNull, str } from '../common/openapi';
import type { ListingInput } from './marketplace.commands';

const TITLE_MAX = 200;
const DESCRIPTION_MAX = 5_000;
const COMMENT_MAX = 2_000;
const ID_MAX = 200;
/** a finite bound (docs/api.md: every number of a body has a documented range) */
const PRICE_MAX = 1_000_000_000;

const length = (text: string): number => [...text].length;

function optionalText(body: Record<string, unknown>, field: string, max: number): string {
  const value = body[field];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalid(`${field} must be a string`);
  if (length(value) > max) throw invalid(`${field} must be at most ${max} characters`);
  return value;
}

export function listingRequest(raw: unknown): ListingInput {
  const body = objectBody(raw);
  const { agent_id: agentId, title } = body;
  if (typeof agentId !== 'string' || agentId.trim() === '' || typeof title !== 'string' || title.trim() === '') throw invalid('agent_id and title required');
  if (length(agentId) > ID_MAX) throw invalid(`agent_id must be at most ${ID_MAX} characters`);
  if (length(title) > TITLE_MAX) throw invalid(`title must be at most ${TITLE_MAX} characters`);
  const category = body.category ?? 'custom';
  if (typeof category !== 'string' || !(LISTING_CATEGORIES as readonly string[]).includes(category)) throw invalid(`category must be one of ${LISTING_CATEGORIES.join(', ')}`);
  const price = body.price_spark ?? 0;
  if (typeof price !== 'number' || !Number.isFinite(price)) throw invalid('price_spark must be a number');
  if (price < 0) throw invalid('price_spark must be at least 0');
  if (price > PRICE_MAX) throw invalid(`price_spark must be at most ${PRICE_MAX}`);
  return { agentId: agentId.trim(), title: title.trim(), description: optionalText(body, 'description', DESCRIPTION_MAX), category: category as ListingCategory, priceSpark: price };
}

export const LISTING_BODY_SCHEMA: JsonSchema = obj(
  {
    agent_id: str({ pattern: '\\S', maxLength: ID_MAX, description: 'one of the caller’s agents' }),
    title: str({ pattern: '\\S', maxLength: TITLE_MAX }),
    description: orNull(str({ maxLength: DESCRIPTION_MAX })),
    category: oneOf(LISTING_CATEGORIES, { default: 'custom' }),
    price_spark: num({ minimum: 0, maximum: PRICE_MAX, default: 0 }),
  },
  ['description', 'category', 'price_spark'],
);

export function reviewRequest(raw: unknown): { rating: number; comment: string } {
  const body = objectBody(raw);
  const rating = body.rating;
  if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 5) throw invalid('rating must be an integer from 1 to 5');
  return { rating, comment: optionalText(body, 'comment', COMMENT_MAX) };
}

export const REVIEW_BODY_SCHEMA: JsonSchema = obj({ rating: int({ minimum: 1, maximum: 5 }), comment: orNull(str({ maxLength: COMMENT_MAX })) }, ['comment']);
