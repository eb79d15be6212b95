import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { RATINGS, ratingsProjection as projection, TRUST, type TrustDoc } from './ratings.projection';

const base = { rating_id: 'r1', rater_id: 'ann', rated_id: 'bob', context_type: 'post', context_id: 'p1', dimension: 'skill' as const, comment: null };
const given = (score: number, weight: number) => recorded('RatingGiven', { ...base, score, weight, rater_signal: weight * 10, created_at: '2026-11-24T10:00:00.000Z' });
const revised = (score: number, weight: number, previous_score: number, previous_weight: number) =>
  recorded('RatingRevised', {
    ...base,
    score,
    weight,
    rater_signal: weight * 10,
    previous_score,
    previous_weight,
    created_at: '2026-11-24T10:00:00.000Z',
    updated_at: '2026-11-24T11:00:00.000Z',
  });

describe('ratings projection', () => {
  it('given a rating, then the rated user has its weighted sums and one rating', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, given(4, 2));
    expect(await store.collection<TrustDoc>(TRUST).findOne({ _id: 'bob' })).toMatchObject({ skill_weighted: 8, skill_weight: 2, skill_count: 1, total_ratings: 1 });
  });

  it('given a rating revised, then the sums move by the difference and the count stays one', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, given(4, 2), revised(1, 0.5, 4, 2));
    expect(await store.collection<TrustDoc>(TRUST).findOne({ _id: 'bob' })).toMatchObject({ skill_weighted: 0.5, skill_weight: 0.5, total_ratings: 1 });
    expect(await store.collection(RATINGS).findOne({ _id: 'r1' })).toMatchObject({ score: 1, weight: 0.5, updated_at: '2026-11-24T11:00:00.000Z' });
  });

  it('given an event applied twice (a replay), then it counts once', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const event = given(5, 1);
    await applyAll(projection, store, event, event);
    expect(await store.collection<TrustDoc>(TRUST).findOne({ _id: 'bob' })).toMatchObject({ skill_weighted: 5, total_ratings: 1 });
  });
});
