import { recordedEvent } from '../../test/support/saga-kit';
import { referralDecider, type ReferralState } from '../aggregates/referrals/referral';
import type { CheckReferralActivation } from '../modules/referrals/referrals.commands';
import { ReferralActivationSaga } from './referral-activation.saga';

const saga = new ReferralActivationSaga();
const checked = (type: string, data: Record<string, unknown>) =>
  (saga.react(recordedEvent(type, data, { eventId: 'e7', correlationId: 'c7' })) as CheckReferralActivation[]).map((c) => ({ ...c.payload, ...c.context }));
const vote = { voter_id: 'cat', target_author_id: 'bob', outcome: 'voted', value: 1, previous: 0, upvotes: 1, downvotes: 0, score: 1, at: 't' };

describe('referral activation saga', () => {
  it.each([
    ['ReferralCreated', { referral_id: 'r1', referrer_id: 'ann', referred_id: 'bob' }],
    ['PostPublished', { post_id: 'p1', author_id: 'bob' }],
    ['CommentPosted', { comment_id: 'c1', post_id: 'p1', author_id: 'bob' }],
    ['PostVoted', { ...vote, post_id: 'p1' }],
    ['CommentVoted', { ...vote, comment_id: 'c1', post_id: 'p1' }],
  ])('given %s about bob, then bob’s referral is checked on facts including the event, caused by it', (type, data) =>
    expect(checked(type, data)).toEqual([{ referredId: 'bob', after: { position: 1, eventType: type }, actor: 'system:referral-activation', correlationId: 'c7', causationId: 'e7' }]));

  it('reacts to nothing else', () => expect(saga.eventTypes).toEqual(['ReferralCreated', 'PostPublished', 'CommentPosted', 'PostVoted', 'CommentVoted']));

  it('given the same event delivered twice to an eligible pending referral, then the referral records one activation', () => {
    const t0 = new Date('2026-11-20T00:00:00Z');
    const now = new Date('2026-11-23T00:00:00Z');
    const create = { kind: 'create', referralId: 'r1', referrerId: 'ann', referredId: 'bob', referredUsername: 'bob', referredRegisteredAt: t0.toISOString(), code: 'ABCD1234' } as const;
    let state: ReferralState = referralDecider.decide(create, referralDecider.initialState, t0).reduce(referralDecider.evolve, referralDecider.initialState);
    const recorded = [];
    for (const _ of [...checked('PostPublished', { post_id: 'p1', author_id: 'bob' }), ...checked('PostPublished', { post_id: 'p1', author_id: 'bob' })]) {
      const events = referralDecider.decide({ kind: 'activate', facts: { registeredAt: t0.toISOString(), postCount: 1, commentCount: 0, karma: 5 } }, state, now);
      state = events.reduce(referralDecider.evolve, state);
      recorded.push(...events);
    }
    expect(recorded.map((e) => e.type)).toEqual(['ReferralActivated']);
  });
});
