import { deciderKit } from '../../../test/support/decider-kit';
import { CANNOT_RATE_YOURSELF, ratingDecider, ratingId, SCORE_RANGE, type RatingCommand, type RatingEvent } from './rating';

const now = new Date('2026-11-24T10:00:00.000Z');
const { given } = deciderKit(ratingDecider, now);

const rate: RatingCommand = {
  kind: 'rate',
  raterId: 'ann',
  ratedId: 'bob',
  contextType: 'post',
  contextId: 'p1',
  dimension: 'skill',
  score: 4,
  comment: 'solid',
  raterSignal: 0,
  weight: 0.5,
};
const id = ratingId(rate);
const fields = {
  rating_id: id,
  rater_id: 'ann',
  rated_id: 'bob',
  context_type: 'post',
  context_id: 'p1',
  dimension: 'skill' as const,
  score: 4,
  comment: 'solid',
  rater_signal: 0,
  weight: 0.5,
};
const given4: RatingEvent = { type: 'RatingGiven', data: { ...fields, created_at: '2026-11-23T09:00:00.000Z' } };

describe('rating', () => {
  it('given no rating, when rating, then RatingGiven records the score and the weight', () =>
    given().when(rate).then({ type: 'RatingGiven', data: { ...fields, created_at: now.toISOString() } }));

  it('given a rating, when rating the same key with another score, then RatingRevised records it and what it replaces', () =>
    given(given4)
      .when({ ...rate, score: 2, raterSignal: 20, weight: 2 })
      .then({
        type: 'RatingRevised',
        data: { ...fields, score: 2, rater_signal: 20, weight: 2, previous_score: 4, previous_weight: 0.5, created_at: '2026-11-23T09:00:00.000Z', updated_at: now.toISOString() },
      }));

  it('given a rating, when repeating it unchanged, then nothing is recorded', () => given(given4).when(rate).then());

  it('when rating yourself, then it is refused', () => given().when({ ...rate, ratedId: 'ann' }).thenRefused('invalid', CANNOT_RATE_YOURSELF));

  it.each([0, 6, 2.5])('when the score is %p, then it is refused', (score) => given().when({ ...rate, score }).thenRefused('invalid', SCORE_RANGE));

  it('the id of a key differs per dimension and per context', () => {
    expect(ratingId({ ...rate, dimension: 'creativity' })).not.toBe(id);
    expect(ratingId({ ...rate, contextId: 'p2' })).not.toBe(id);
    expect(ratingId({ ...rate })).toBe(id);
  });
});
