/**
 * A marketplace listing (social-routes §22 "Marketplace"): an agent offered
 * for hire by its owner. The listing's stream (`listing-<id>`) is the
 * consistency boundary of its counters: concurrent hires each add exactly 1
 * to `hire_count`, and each user's one review is decided here (a second one,
 * however concurrent, is 409), so `rating_avg` is always the mean of the
 * recorded ratings.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export const LISTING_CATEGORIES = ['content_creation', 'analysis_research', 'learning_tutoring', 'game_design', 'creative', 'custom'] as const;
export type ListingCategory = (typeof LISTING_CATEGORIES)[number];

export interface ListingRecord {
  id: string;
  agent_id: string;
  owner_id: string;
  title: string;
  description: string;
  category: ListingCategory;
  price_spark: number;
}

export interface ListingReview {
  user_id: string;
  rating: number;
  comment: string;
}

export type ListingEvent =
  | { type: 'ListingCreated'; data: ListingRecord & { created_at: string } }
  /** `hire_count`: the count after this hire */
  | { type: 'ListingHired'; data: { listing_id: string; user_id: string; hire_count: number; at: string } }
  /** `rating_avg`, `review_count`: the listing's after this review */
  | { type: 'ListingReviewed'; data: { listing_id: string; user_id: string; rating: number; comment: string; rating_avg: number; review_count: number; at: string } };

export type ListingState =
  | { status: 'none' }
  | { status: 'listed'; listing: ListingRecord; hireCount: number; ratingSum: number; reviewers: ReadonlySet<string> };

export type ListingCommand =
  | { kind: 'create'; listing: ListingRecord }
  | { kind: 'hire'; userId: string }
  | { kind: 'review'; review: ListingReview };

export const LISTING_NOT_FOUND = 'Listing not found';
export const ALREADY_REVIEWED = 'Already reviewed this listing';

export const listingStreamId = (id: string): string => `listing-${id}`;

/** The mean of the ratings, to 2 decimals. */
export const ratingAverage = (sum: number, count: number): number => (count === 0 ? 0 : Math.round((sum / count) * 100) / 100);

function listed(state: ListingState): Extract<ListingState, { status: 'listed' }> {
  if (state.status !== 'listed') throw new DomainError('not_found', LISTING_NOT_FOUND);
  return state;
}

export const listingDecider: Decider<ListingState, ListingCommand, ListingEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'ListingCreated': {
        const { created_at: _createdAt, ...listing } = event.data;
        return { status: 'listed', listing, hireCount: 0, ratingSum: 0, reviewers: new Set() };
      }
      case 'ListingHired':
        return state.status === 'listed' ? { ...state, hireCount: event.data.hire_count } : state;
      case 'ListingReviewed':
        return state.status === 'listed' ? { ...state, ratingSum: state.ratingSum + event.data.rating, reviewers: new Set([...state.reviewers, event.data.user_id]) } : state;
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'create':
        if (state.status !== 'none') throw new DomainError('conflict', 'listing already exists');
        if (!Number.isFinite(command.listing.price_spark) || command.listing.price_spark < 0) throw new DomainError('invalid', 'price_spark must be at least 0');
        return [{ type: 'ListingCreated', data: { ...command.listing, created_at: at } }];
      case 'hire': {
        const listing = listed(state);
        return [{ type: 'ListingHired', data: { listing_id: listing.listing.id, user_id: command.userId, hire_count: listing.hireCount + 1, at } }];
      }
      case 'review': {
        const listing = listed(state);
        const { user_id, rating, comment } = command.review;
        if (!Number.isInteger(rating) || rating < 1 || rating > 5) throw new DomainError('invalid', 'rating must be an integer from 1 to 5');
        if (listing.reviewers.has(user_id)) throw new DomainError('conflict', ALREADY_REVIEWED);
        const count = listing.reviewers.size + 1;
        return [
          {
            type: 'ListingReviewed',
            data: { listing_id: listing.listing.id, user_id, rating, comment, rating_avg: ratingAverage(listing.ratingSum + rating, count), review_count: count, at },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
