/**
 * The agent marketplace over HTTP (social-routes §22 "Marketplace"): listing
 * one's own agent, browsing with q and category, hiring (concurrent hires
 * count exactly) and reviewing (one per user, race-tested; rating_avg the
 * mean).
 */
import { signUp, startTestApp, type TestApp, uniqueLetters } from '../support/app';

jest.setTimeout(60_000);

const P = '/api/social';

interface User {
  id: string;
  token: string;
}

describe('the agent marketplace', () => {
  let t: TestApp;
  let owner: User;
  let other: User;
  let agentId: string;
  let otherAgentId: string;

  const register = (): Promise<User> => signUp(t, { prefix: 'mk' });

  const newAgent = async (user: User): Promise<string> => {
    const res = await t.request('POST', `${P}/users/${user.id}/agents`, { token: user.token, body: { name: `keen.otter.${uniqueLetters()}` } });
    expect(res.status).toBe(201);
    return res.body.data.id;
  };
  const list = async (user: User, body: Record<string, unknown>) => t.request('POST', `${P}/marketplace/listings`, { token: user.token, body });
  const listed = async (body: Record<string, unknown>) => {
    const res = await list(owner, { agent_id: agentId, ...body });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; [k: string]: unknown };
  };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await register();
    other = await register();
    agentId = await newAgent(owner);
    otherAgentId = await newAgent(other);
  });
  afterAll(async () => t?.close());

  it('when asking for the categories, then the six of the contract', async () => {
    const res = await t.request('GET', `${P}/marketplace/categories`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(['content_creation', 'analysis_research', 'learning_tutoring', 'game_design', 'creative', 'custom']);
  });

  it('given my agent, when listing it, then 201 with the listing, escaped, hire_count 0 and rating_avg 0', async () => {
    const listing = await listed({ title: 'Writer <b>pro</b>', description: 'writes', category: 'creative', price_spark: 12.5 });
    expect(listing).toMatchObject({ agent_id: agentId, owner_id: owner.id, title: 'Writer &lt;b&gt;pro&lt;/b&gt;', category: 'creative', price_spark: 12.5, hire_count: 0, rating_avg: 0, review_count: 0 });
    expect((await t.request('GET', `/social/marketplace/listings/${listing.id}`)).body.data).toEqual(listing);
  });

  it('given someone else’s agent, when listing it, then 403 `Not your agent`', async () => {
    expect(await list(owner, { agent_id: otherAgentId, title: 'Stolen' })).toMatchObject({ status: 403, body: { error: 'Not your agent' } });
  });

  it('given an unknown agent, when listing it, then 404', async () => {
    expect((await list(owner, { agent_id: 'nope', title: 'Ghost' })).status).toBe(404);
  });

  it.each([
    [{ title: 'No agent' }, 'agent_id and title required'],
    [{ agent_id: 'x' }, 'agent_id and title required'],
    [{ agent_id: 'x', title: 'Cheap', price_spark: -1 }, 'price_spark must be at least 0'],
    [{ agent_id: 'x', title: 'Dear', price_spark: 1e308 }, 'price_spark must be at most 1000000000'],
    [{ agent_id: 'x', title: 'Odd', category: 'cooking' }, /^category must be one of/],
  ])('given %p, when listing, then 400', async (body, error) => {
    const res = await list(owner, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(error);
  });

  it('given no token, when listing, hiring or reviewing, then 401', async () => {
    expect((await t.request('POST', `${P}/marketplace/listings`, { body: { agent_id: agentId, title: 'x' } })).status).toBe(401);
    expect((await t.request('POST', `${P}/marketplace/listings/x/hire`)).status).toBe(401);
    expect((await t.request('POST', `${P}/marketplace/listings/x/reviews`, { body: { rating: 5 } })).status).toBe(401);
  });

  it('given listings, when browsing by q and category, then q matches a literal case-insensitive substring, paginated with meta', async () => {
    const tag = uniqueLetters();
    await listed({ title: `Tutor ${tag} (a+b)*`, category: 'learning_tutoring' });
    await listed({ title: `Analyst ${tag}`, description: `finds (A+B)* patterns`, category: 'analysis_research' });
    await listed({ title: `Analyst ${tag} two`, description: 'aab' });
    const byQ = await t.request('GET', `${P}/marketplace/listings?q=${encodeURIComponent('(A+b)*')}`);
    expect(byQ.body.data.map((l: { title: string }) => l.title).sort()).toEqual([`Analyst ${tag}`, `Tutor ${tag} (a+b)*`]);
    expect(byQ.body.meta).toEqual({ total: 2, limit: 20, offset: 0, has_more: false });
    const byCategory = await t.request('GET', `${P}/marketplace/listings?q=${tag}&category=analysis_research`);
    expect(byCategory.body.data.map((l: { title: string }) => l.title)).toEqual([`Analyst ${tag}`]);
    const paged = await t.request('GET', `${P}/marketplace/listings?q=${tag}&limit=2&offset=0`);
    expect(paged.body.meta).toEqual({ total: 3, limit: 2, offset: 0, has_more: true });
    expect((await t.request('GET', `${P}/marketplace/listings?limit=500`)).body.meta.limit).toBe(50);
    expect((await t.request('GET', `${P}/marketplace/listings?category=cooking`)).status).toBe(400);
    expect((await t.request('GET', `${P}/marketplace/listings?offset=x`)).status).toBe(400);
  });

  it('given 10 concurrent hires of one listing, then hire_count is exactly 10', async () => {
    const listing = await listed({ title: 'Busy' });
    const replies = await Promise.all(Array.from({ length: 10 }, () => t.request('POST', `${P}/marketplace/listings/${listing.id}/hire`, { token: other.token })));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(replies.map((r) => r.body.data.hire_count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await t.request('GET', `${P}/marketplace/listings/${listing.id}`)).body.data.hire_count).toBe(10);
  });

  it('given an unknown listing, when hiring, reading or reviewing it, then 404 `Listing not found`', async () => {
    expect(await t.request('POST', `${P}/marketplace/listings/nope/hire`, { token: other.token })).toMatchObject({ status: 404, body: { error: 'Listing not found' } });
    expect((await t.request('GET', `${P}/marketplace/listings/nope`)).status).toBe(404);
    expect((await t.request('GET', `${P}/marketplace/listings/nope/reviews`)).status).toBe(404);
    expect((await t.request('POST', `${P}/marketplace/listings/nope/reviews`, { token: other.token, body: { rating: 3 } })).status).toBe(404);
  });

  it('given reviews of 5 and 2, then rating_avg is 3.5 and both reviews are listed', async () => {
    const listing = await listed({ title: 'Rated' });
    const first = await t.request('POST', `${P}/marketplace/listings/${listing.id}/reviews`, { token: other.token, body: { rating: 5, comment: 'great <3' } });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ review: { user_id: other.id, rating: 5, comment: 'great &lt;3' }, rating_avg: 5, review_count: 1 });
    const second = await t.request('POST', `${P}/marketplace/listings/${listing.id}/reviews`, { token: owner.token, body: { rating: 2 } });
    expect(second.body.data).toMatchObject({ rating_avg: 3.5, review_count: 2 });
    expect((await t.request('GET', `${P}/marketplace/listings/${listing.id}`)).body.data).toMatchObject({ rating_avg: 3.5, review_count: 2 });
    const reviews = await t.request('GET', `${P}/marketplace/listings/${listing.id}/reviews`);
    expect(reviews.body.meta).toMatchObject({ total: 2 });
    expect(reviews.body.data.map((r: { rating: number }) => r.rating).sort()).toEqual([2, 5]);
  });

  it.each([0, 6, 4.5, '5'])('given a rating of %p, when reviewing, then 400', async (rating) => {
    const listing = await listed({ title: 'Strict' });
    const res = await t.request('POST', `${P}/marketplace/listings/${listing.id}/reviews`, { token: other.token, body: { rating } });
    expect(res).toMatchObject({ status: 400, body: { error: 'rating must be an integer from 1 to 5' } });
  });

  it('given 5 concurrent reviews by one user, then exactly one is recorded and the others are 409', async () => {
    const listing = await listed({ title: 'Contested' });
    const replies = await Promise.all([1, 2, 3, 4, 5].map((rating) => t.request('POST', `${P}/marketplace/listings/${listing.id}/reviews`, { token: other.token, body: { rating } })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(replies.find((r) => r.status === 409)?.body.error).toBe('Already reviewed this listing');
    const after = (await t.request('GET', `${P}/marketplace/listings/${listing.id}`)).body.data;
    const recorded = replies.find((r) => r.status === 201)!.body.data.review.rating;
    expect(after).toMatchObject({ review_count: 1, rating_avg: recorded });
  });
});
