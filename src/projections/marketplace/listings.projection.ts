/**
 * `market_listings` (one document per listing, with its counters as the
 * listing's stream decided them) and `market_reviews` (one per listing and
 * reviewer) for the marketplace routes (social-routes §22).
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import type { ListingRecord } from '../../aggregates/marketplace/listing';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const MARKET_LISTINGS = 'market_listings';
export const MARKET_REVIEWS = 'market_reviews';

export interface ListingDoc extends Doc, Omit<ListingRecord, 'id'> {
  hire_count: number;
  rating_avg: number;
  review_count: number;
  created_at: string;
}

export interface ReviewDoc extends Doc {
  listing_id: string;
  user_id: string;
  rating: number;
  comment: string;
  created_at: string;
}

export const reviewDocId = (listingId: string, userId: string): string => `${listingId}:${userId}`;

export const listingsProjection = defineProjection({
  name: 'market-listings',
  version: 1,
  collections: [MARKET_LISTINGS, MARKET_REVIEWS],
  indexes: [
    { collection: MARKET_LISTINGS, spec: { keys: { rating_avg: -1, hire_count: -1, created_at: -1 } } },
    { collection: MARKET_LISTINGS, spec: { keys: { category: 1, rating_avg: -1, hire_count: -1, created_at: -1 } } },
    { collection: MARKET_REVIEWS, spec: { keys: { listing_id: 1, created_at: -1 } } },
  ],
  on: {
    ListingCreated: (event, writer) => {
      const { id, ...fields } = event.data;
      applyOnce(writer, MARKET_LISTINGS, id, event, { $set: { ...fields, hire_count: 0, rating_avg: 0, review_count: 0 } });
    },
    ListingHired: (event, writer) => {
      // the count the stream decided: a redelivered or reordered hire cannot double count
      applyOnce(writer, MARKET_LISTINGS, event.data.listing_id, event, { $max: { hire_count: event.data.hire_count } }, { upsert: false });
    },
    ListingReviewed: (event, writer) => {
      const { listing_id, user_id, rating, comment, rating_avg, review_count, at } = event.data;
      applyOnce(writer, MARKET_LISTINGS, listing_id, event, { $set: { rating_avg, review_count } }, { upsert: false });
      applyOnce(writer, MARKET_REVIEWS, reviewDocId(listing_id, user_id), event, { $set: { listing_id, user_id, rating, comment, created_at: at } });
    },
  },
});
