import { deciderKit } from '../../../test/support/decider-kit';
import { ALREADY_REVIEWED, type ListingEvent, type ListingRecord, LISTING_NOT_FOUND, listingDecider } from './listing';

const now = new Date('2026-11-24T10:00:00.000Z');
const { given } = deciderKit(listingDecider, now);

const record: ListingRecord = { id: 'l1', agent_id: 'agent1', owner_id: 'ann', title: 'Writer', description: '', category: 'creative', price_spark: 10 };
const created: ListingEvent = { type: 'ListingCreated', data: { ...record, created_at: '2026-11-24T09:00:00.000Z' } };
const reviewedBy = (user_id: string, rating: number, rating_avg: number, review_count: number): ListingEvent => ({
  type: 'ListingReviewed',
  data: { listing_id: 'l1', user_id, rating, comment: '', rating_avg, review_count, at: '2026-11-24T09:10:00.000Z' },
});

describe('marketplace listing', () => {
  it('given nothing, when created, then ListingCreated is recorded', () =>
    given().when({ kind: 'create', listing: record }).then({ type: 'ListingCreated', data: { ...record, created_at: now.toISOString() } }));

  it('given a negative price, when created, then it is refused', () =>
    given().when({ kind: 'create', listing: { ...record, price_spark: -1 } }).thenRefused('invalid', 'price_spark must be at least 0'));

  it('given a listing hired twice, when hired, then hire_count is 3', () =>
    given(created, { type: 'ListingHired', data: { listing_id: 'l1', user_id: 'bob', hire_count: 1, at: '' } }, { type: 'ListingHired', data: { listing_id: 'l1', user_id: 'bob', hire_count: 2, at: '' } })
      .when({ kind: 'hire', userId: 'cat' })
      .then({ type: 'ListingHired', data: { listing_id: 'l1', user_id: 'cat', hire_count: 3, at: now.toISOString() } }));

  it('given no listing, when hired, then it is not found', () => given().when({ kind: 'hire', userId: 'bob' }).thenRefused('not_found', LISTING_NOT_FOUND));

  it('given a review of 5, when another user rates 2, then rating_avg is 3.5 of 2 reviews', () =>
    given(created, reviewedBy('bob', 5, 5, 1))
      .when({ kind: 'review', review: { user_id: 'cat', rating: 2, comment: 'meh' } })
      .then({ type: 'ListingReviewed', data: { listing_id: 'l1', user_id: 'cat', rating: 2, comment: 'meh', rating_avg: 3.5, review_count: 2, at: now.toISOString() } }));

  it('given a user’s review, when the same user reviews again, then it is a conflict', () =>
    given(created, reviewedBy('bob', 5, 5, 1)).when({ kind: 'review', review: { user_id: 'bob', rating: 4, comment: '' } }).thenRefused('conflict', ALREADY_REVIEWED));

  it.each([0, 6, 2.5])('given a rating of %p, when reviewing, then it is refused', (rating) =>
    given(created).when({ kind: 'review', review: { user_id: 'bob', rating, comment: '' } }).thenRefused('invalid'));
});
