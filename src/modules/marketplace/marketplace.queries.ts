/**
 * Reads of the marketplace (social-routes §22): `market_listings` and
 * `market_reviews` only. `q` is matched as a literal, case-insensitive
 * substring (its regular-expression characters escaped, as /search does).
 */
import { Inject, Injectable } from '@nestjs/common';
import { LISTING_NOT_FOUND, type ListingCategory } from '../../aggregates/marketplace/listing';
import { DomainError } from '../../aggregates/shared/domain-error';
import { READ_STORE, type Filter, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { type ListingDoc, MARKET_LISTINGS, MARKET_REVIEWS, type ReviewDoc } from '../../projections/marketplace/listings.projection';
import { escapeHtml } from '../common/html-escape';
import type { Page } from '../common/paging';
import { containsPattern } from '../content/content.queries';

export interface ListingView extends Omit<ListingDoc, '_id' | '_pos'> {
  id: string;
}

export interface ReviewView {
  id: string;
  listing_id: string;
  user_id: string;
  rating: number;
  comment: string;
  created_at: string;
}

export function toListingView(doc: ListingDoc): ListingView {
  return {
    id: doc._id,
    agent_id: doc.agent_id,
    owner_id: doc.owner_id,
    title: escapeHtml(doc.title),
    description: escapeHtml(doc.description),
    category: doc.category,
    price_spark: doc.price_spark,
    hire_count: doc.hire_count,
    rating_avg: doc.rating_avg,
    review_count: doc.review_count,
    created_at: doc.created_at,
  };
}

const toReviewView = (doc: ReviewDoc): ReviewView => ({ id: doc._id, listing_id: doc.listing_id, user_id: doc.user_id, rating: doc.rating, comment: escapeHtml(doc.comment), created_at: doc.created_at });

@Injectable()
export class MarketplaceQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** Listings matching `q` (title or description) and `category`, best rated first, then most hired, then newest. */
  async listings(filter: { q: string | null; category: ListingCategory | null }, page: Page): Promise<{ items: ListingView[]; total: number }> {
    const clauses: Filter[] = [];
    if (filter.category) clauses.push({ category: filter.category });
    if (filter.q) {
      const pattern = containsPattern(filter.q);
      clauses.push({ $or: [{ title: pattern }, { description: pattern }] });
    }
    const where: Filter = clauses.length === 0 ? {} : clauses.length === 1 ? clauses[0] : { $and: clauses };
    const listings = this.store.collection<ListingDoc>(MARKET_LISTINGS);
    const [docs, total] = await Promise.all([
      listings.find(where, { sort: { rating_avg: -1, hire_count: -1, created_at: -1, _id: 1 }, skip: page.offset, limit: page.limit }),
      listings.countDocuments(where),
    ]);
    return { items: docs.map(toListingView), total };
  }

  /** The listing, or 404 `Listing not found`. */
  async listing(id: string): Promise<ListingView> {
    const doc = await this.store.collection<ListingDoc>(MARKET_LISTINGS).findOne({ _id: String(id) });
    if (!doc) throw new DomainError('not_found', LISTING_NOT_FOUND);
    return toListingView(doc);
  }

  /** A listing's reviews, newest first (404 for an unknown listing). */
  async reviews(listingId: string, page: Page): Promise<{ items: ReviewView[]; total: number }> {
    await this.listing(listingId);
    const reviews = this.store.collection<ReviewDoc>(MARKET_REVIEWS);
    const where = { listing_id: String(listingId) };
    const [docs, total] = await Promise.all([reviews.find(where, { sort: { created_at: -1, _id: 1 }, skip: page.offset, limit: page.limit }), reviews.countDocuments(where)]);
    return { items: docs.map(toReviewView), total };
  }

  async review(id: string): Promise<ReviewView | null> {
    const doc = await this.store.collection<ReviewDoc>(MARKET_REVIEWS).findOne({ _id: id });
    return doc ? toReviewView(doc) : null;
  }
}
