/**
 * Ads over HTTP (social-routes §16): creating ads with their budget held from
 * the advertiser's spark (20 at once on one wallet never overdraw), serving
 * (targeting, window, frequency cap, the most remaining budget), views and
 * clicks with their rate limits and the budget under concurrent requests,
 * analytics, the refund, and money adding up to the centi-spark: advertiser's
 * hold = spent + refunded, spent = operators' shares + platform's share, the
 * operator paid whole spark, the revenue dashboard's ad revenue. Last, the
 * ads read models rebuilt from the log equal the live ones. One app.
 */
import { rmSync } from 'node:fs';
import { walletDecider, walletStreamId } from '../../src/aggregates/contest/wallet';
import { NodeKey } from '../../src/infrastructure/node-identity/node-key';
import { signImpressionWitnessRequest, type WitnessCoSignature } from '../../src/modules/integrity/witness';
import { canonicalJson } from '../../src/infrastructure/canonical-json';
import { CommandExecutor } from '../../src/modules/common/command-executor';
import { settled, signUp, type SignedUpUser, startTestApp, type TestApp, uniqueName } from '../support/app';
import { eventually } from '../support/eventually';
import { readModelSnapshot, rebuildProjections } from '../support/rebuild';

jest.setTimeout(180_000);

const P = '/api/social';
const OPERATED = 'node-op';
const WITNESSED_NODE = 'node-op2';
/** a registered node without an operator: its charges pay no share */
const UNOPERATED = 'node-free';
const servingKey = NodeKey.generate();
const strangerKey = NodeKey.generate();
const operatorName = uniqueName('adsop');
const witnessedOperatorName = uniqueName('adsop');
const adminName = uniqueName('adsadm');

describe('ads over HTTP', () => {
  let t: TestApp;
  let admin: SignedUpUser;
  let operator: SignedUpUser;
  let closed = false;

  beforeAll(async () => {
    // the serving nodes are registered peers, so the app itself co-signs their impressions as a witness
    t = await startTestApp({
      AD_NODE_OPERATORS: `${OPERATED}=${operatorName},${WITNESSED_NODE}=${witnessedOperatorName}`,
      TRUSTED_NODE_KEYS: [OPERATED, WITNESSED_NODE, UNOPERATED].map((node) => `${node}=${servingKey.publicKeyHex}`).join(','),
      SVC_ADMIN_USERS: adminName,
    });
    admin = await signUp(t, { username: adminName });
    operator = await signUp(t, { username: operatorName });
  });
  afterAll(async () => {
    if (!closed) await t?.close();
  });

  const user = () => signUp(t, { prefix: 'ads' });
  /** Credits spark straight on the wallet (the decider: no route grants spark at will). */
  const fund = (u: SignedUpUser, spark: number) =>
    t.app
      .get(CommandExecutor)
      .execute(walletDecider, walletStreamId(u.id), { kind: 'reward', userId: u.id, action: 'test', amounts: { spark }, sourceType: 'test', sourceId: uniqueName('fund') }, { actor: 'test', correlationId: 'test' });
  const funded = async (spark: number) => {
    const u = await user();
    await fund(u, spark);
    return u;
  };
  const createAd = (u: SignedUpUser | null, body: Record<string, unknown>) =>
    t.request('POST', `${P}/ads`, { token: u?.token, body: { title: 'Ad', click_url: 'https://example.org/buy', targeting: { region_ids: ['nowhere'] }, ...body } });
  const wallet = async (u: SignedUpUser) => (await t.request('GET', `${P}/resonance/wallet`, { token: u.token })).body.data;
  const view = (u: SignedUpUser, adId: string, body: Record<string, unknown> = {}) => t.request('POST', `${P}/ads/${adId}/impression`, { token: u.token, body });
  const click = (u: SignedUpUser, adId: string, body: Record<string, unknown> = {}) => t.request('POST', `${P}/ads/${adId}/click`, { token: u.token, body });
  const analytics = (u: SignedUpUser, adId: string) => t.request('GET', `${P}/ads/${adId}/analytics`, { token: u.token });
  const serve = (query: string, u: SignedUpUser | null = null) => t.request('GET', `${P}/ads/serve${query}`, { token: u?.token });
  /** The serving node asks a peer (here the app itself) to co-sign an impression of the ad: POST /integrity/witness-impression's answer. */
  const coSigned = async (adId: string, nodeId = OPERATED): Promise<WitnessCoSignature> => {
    const request = signImpressionWitnessRequest(servingKey, { node_id: nodeId, timestamp: Date.now(), impression_id: uniqueName('imp'), ad_id: adId, nonce: uniqueName('nonce-') });
    const answer = await t.request('POST', `${P}/integrity/witness-impression`, { body: request });
    expect(answer.body).toMatchObject({ witnessed: true });
    return answer.body;
  };
  /** A charge body served by `nodeId` carrying the witness's answer as it came. */
  const witnessed = async (adId: string, nodeId = OPERATED) => ({ node_id: nodeId, ...(await coSigned(adId, nodeId)) });
  /** The same answer with its statement signed by a key nobody registered. */
  const forged = (body: { witness: WitnessCoSignature['witness'] }) => ({ ...body, witness_signature: strangerKey.sign(canonicalJson(body.witness)) });

  describe('POST /ads', () => {
    it('given a funded advertiser, when creating an ad, then 201 active with the budget held from the spark', async () => {
      const ann = await funded(120);
      const res = await createAd(ann, { title: '<b>Shoes</b>', budget_spark: 100, content: 'x & y' });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        advertiser_id: ann.id,
        title: '&lt;b&gt;Shoes&lt;/b&gt;',
        content: 'x &amp; y',
        image_url: null,
        click_url: 'https://example.org/buy',
        ad_type: 'banner',
        targeting: { region_ids: ['nowhere'], community_ids: [], user_types: [] },
        budget_spark: 100,
        spent_spark: 0,
        cost_per_impression: 0.1,
        cost_per_click: 1,
        impression_count: 0,
        click_count: 0,
        status: 'active',
        starts_at: null,
        ends_at: null,
        created_at: expect.any(String),
      });
      expect((await wallet(ann)).spark).toBe(20);
      const ledger = (await t.request('GET', `${P}/resonance/transactions?currency=spark&limit=1`, { token: ann.token })).body.data;
      expect(ledger[0]).toMatchObject({ amount: -100, balance_after: 20, source_type: 'ad_budget', source_id: res.body.data.id });
    });

    it.each([
      [{ title: '' }, 'Title and click_url are required'],
      [{ click_url: undefined }, 'Title and click_url are required'],
      [{ budget_spark: 49 }, 'Minimum budget is 50 Spark'],
      [{ budget_spark: '100' }, 'budget_spark must be a number'],
      [{ cost_per_impression: 0.001 }, 'cost_per_impression must be a multiple of 0.01 spark from 0.01 to the budget'],
      [{ click_url: 'javascript:alert(1)' }, 'click_url must be an http(s) URL of at most 500 characters'],
      [{ targeting: { user_types: ['robot'] } }, 'targeting.user_types must be a list of human, agent, guest'],
    ])('given %j, then 400 with the text', async (body, error) => {
      const res = await createAd(await funded(200), body);
      expect([res.status, res.body]).toEqual([400, { success: false, error }]);
    });

    it('given 40 spark, when creating an ad of 50, then 400 Insufficient Spark and nothing held', async () => {
      const bob = await funded(40);
      expect((await createAd(bob, { budget_spark: 50 })).body).toEqual({ success: false, error: 'Insufficient Spark' });
      expect((await wallet(bob)).spark).toBe(40);
    });

    it('given no token, then 401', async () => expect((await createAd(null, {})).status).toBe(401));

    it('given 250 spark, when 20 ads of 50 are created at once, then exactly 5 are created and the wallet never overdraws', async () => {
      const cat = await funded(250);
      const results = await Promise.all(Array.from({ length: 20 }, () => createAd(cat, { budget_spark: 50 })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(5);
      expect(results.filter((r) => r.status === 400).map((r) => r.body.error)).toEqual(Array(15).fill('Insufficient Spark'));
      expect((await wallet(cat)).spark).toBe(0);
      const mine = await t.request('GET', `${P}/ads/mine?limit=100`, { token: cat.token });
      expect(mine.body.data).toHaveLength(5);
    });
  });

  describe('GET /ads/mine', () => {
    it('given ads of several statuses, then newest first, filtered by status, paged; a malformed limit or status is 400', async () => {
      const dan = await funded(200);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await createAd(dan, { budget_spark: 50 })).body.data.id);
      expect((await t.request('DELETE', `${P}/ads/${ids[0]}`, { token: dan.token })).status).toBe(200);
      const all = await t.request('GET', `${P}/ads/mine`, { token: dan.token });
      expect(all.body.data.map((a: { id: string }) => a.id)).toEqual([...ids].reverse());
      expect(all.body.meta).toBeUndefined();
      const active = await t.request('GET', `${P}/ads/mine?status=active&limit=1&offset=1`, { token: dan.token });
      expect(active.body.data.map((a: { id: string }) => a.id)).toEqual([ids[1]]);
      expect((await t.request('GET', `${P}/ads/mine?status=completed`, { token: dan.token })).body.data.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
      expect((await t.request('GET', `${P}/ads/mine?limit=x`, { token: dan.token })).status).toBe(400);
      expect((await t.request('GET', `${P}/ads/mine?status=gone`, { token: dan.token })).status).toBe(400);
    });
  });

  describe('views and clicks', () => {
    it('given an ad, when a user views it 4 times and clicks twice, then the 4th view and the 2nd click are 429; spent_spark keeps its fraction', async () => {
      const ad = (await createAd(await funded(100), { budget_spark: 50 })).body.data;
      const eve = await user();
      const first = await view(eve, ad.id, { placement_id: 'sidebar', region_id: 'r1' });
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({
        id: expect.any(String),
        ad_id: ad.id,
        placement_id: 'sidebar',
        node_id: null,
        region_id: 'r1',
        user_id: eve.id,
        impression_type: 'view',
        created_at: expect.any(String),
        witness_node_id: null,
        witness_signature: null,
        sealed_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        sealed_at: first.body.data.created_at,
        witnessed: false,
      });
      expect((await view(eve, ad.id)).status).toBe(200);
      expect((await view(eve, ad.id)).status).toBe(200);
      expect((await view(eve, ad.id)).body).toEqual({ success: false, error: 'Rate limit exceeded' });
      expect((await click(eve, ad.id)).body.data.impression_type).toBe('click');
      const second = await click(eve, ad.id);
      expect([second.status, second.body.error]).toEqual([429, 'Click rate limit exceeded']);
      const owner = (await analytics(admin, ad.id)).body.data;
      expect(owner).toMatchObject({ impressions: 3, clicks: 1, ctr: 33.33, spent_spark: 1.3, remaining_spark: 48.7 });
    });

    it('given one user, when 10 views are sent at once, then exactly 3 are charged', async () => {
      const ad = (await createAd(await funded(100), { budget_spark: 50 })).body.data;
      const fay = await user();
      const results = await Promise.all(Array.from({ length: 10 }, () => view(fay, ad.id)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(3);
      expect(results.filter((r) => r.status === 429).map((r) => r.body.error)).toEqual(Array(7).fill('Rate limit exceeded'));
    });

    it('given a budget for 5 views, when 8 users view at once, then 5 are charged, the ad is exhausted and never overspent', async () => {
      const owner = await funded(100);
      const ad = (await createAd(owner, { budget_spark: 50, cost_per_impression: 10 })).body.data;
      const viewers = await Promise.all(Array.from({ length: 8 }, () => user()));
      const results = await Promise.all(viewers.map((v) => view(v, ad.id)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(5);
      const refused = results.filter((r) => r.status !== 200);
      expect(refused.map((r) => r.body.error)).toContain('Ad budget exhausted');
      for (const r of refused) expect([[429, 'Ad budget exhausted'], [404, 'Ad not found']]).toContainEqual([r.status, r.body.error]);
      expect((await analytics(owner, ad.id)).body.data).toMatchObject({ impressions: 5, spent_spark: 50, remaining_spark: 0, ad: { status: 'exhausted' } });
      expect((await view(await user(), ad.id)).body).toEqual({ success: false, error: 'Ad not found' });
    });

    it('given an unknown ad, then 404 Ad not found; without a token, 401', async () => {
      expect((await view(await user(), 'nope')).body).toEqual({ success: false, error: 'Ad not found' });
      expect((await t.request('POST', `${P}/ads/nope/click`, { body: {} })).status).toBe(401);
    });
  });

  describe('GET /ads/serve', () => {
    it('serves the matching ad with the most remaining budget, within its window, capped at 3 views an hour per viewer', async () => {
      const rich = await funded(1_000_000);
      const region = uniqueName('reg');
      const targeted = (await createAd(rich, { budget_spark: 100_000, targeting: { region_ids: [region] } })).body.data;
      const open = (await createAd(rich, { budget_spark: 90_000, targeting: {} })).body.data;
      await createAd(rich, { budget_spark: 200_000, targeting: {}, starts_at: new Date(Date.now() + 86_400_000).toISOString() });
      await createAd(rich, { budget_spark: 300_000, targeting: { user_types: ['agent'] } });

      expect((await serve(`?region=${region}`)).body).toEqual({ success: true, data: { ad: expect.objectContaining({ id: targeted.id }), placement: 'feed_top' } });
      expect((await serve(`?region=elsewhere&placement=sidebar`)).body.data).toEqual({ ad: expect.objectContaining({ id: open.id }), placement: 'sidebar' });
      expect((await serve('?placement=footer')).status).toBe(400);

      const gus = await user();
      for (let i = 0; i < 3; i++) expect((await view(gus, targeted.id)).status).toBe(200);
      expect((await serve(`?region=${region}`, gus)).body.data.ad.id).toBe(open.id);
      expect((await serve(`?region=${region}`)).body.data.ad.id).toBe(targeted.id);
      // a bad token reads as anonymous
      expect((await t.request('GET', `${P}/ads/serve?region=${region}`, { token: 'bad' })).body.data.ad.id).toBe(targeted.id);
      for (const id of [targeted.id, open.id]) expect((await t.request('DELETE', `${P}/ads/${id}`, { token: rich.token })).status).toBe(200);
    });
  });

  describe('analytics and DELETE', () => {
    it('given an ad of ann, then its analytics and its deletion are 404 to others', async () => {
      const ann = await funded(100);
      const ad = (await createAd(ann, { budget_spark: 60 })).body.data;
      const other = await user();
      expect((await analytics(other, ad.id)).body).toEqual({ success: false, error: 'Ad not found' });
      expect((await t.request('DELETE', `${P}/ads/${ad.id}`, { token: other.token })).body).toEqual({ success: false, error: 'Ad not found' });
      const res = await t.request('DELETE', `${P}/ads/${ad.id}`, { token: ann.token });
      expect(res.body).toEqual({ success: true, data: { deleted: true, spark_refunded: 60 } });
      expect((await wallet(ann)).spark).toBe(100);
      expect((await t.request('DELETE', `${P}/ads/${ad.id}`, { token: ann.token })).status).toBe(404);
      expect((await view(other, ad.id)).body.error).toBe('Ad not found');
    });
  });

  describe('witnesses (the integrity co-signature, POST /integrity/witness-impression)', () => {
    it('given an impression served by an operated node and co-signed by a peer, when it is charged, then it is witnessed and the operator gets 90% of the cost', async () => {
      const witnessedOperator = await signUp(t, { username: witnessedOperatorName });
      const adv = await funded(100);
      const ad = (await createAd(adv, { budget_spark: 50, cost_per_impression: 10 })).body.data;
      const res = await view(await user(), ad.id, await witnessed(ad.id, WITNESSED_NODE));
      expect(res.body.data).toMatchObject({ node_id: WITNESSED_NODE, witness_node_id: expect.any(String), witness_signature: expect.stringMatching(/^[0-9a-f]{128}$/), witnessed: true });
      await settled(t);
      expect((await eventually('the operator paid', () => wallet(witnessedOperator), (w) => w?.spark > 0)).spark).toBe(9);
    });

    it('given a co-signature that already witnessed a charge, when it is presented again, then 409 `Witness nonce already used` and nothing is charged', async () => {
      const adv = await funded(100);
      const ad = (await createAd(adv, { budget_spark: 50 })).body.data;
      const body = await witnessed(ad.id, UNOPERATED);
      expect((await view(await user(), ad.id, body)).status).toBe(200);
      const again = await view(await user(), ad.id, body);
      expect({ status: again.status, body: again.body }).toEqual({ status: 409, body: { success: false, error: 'Witness nonce already used' } });
      expect((await analytics(adv, ad.id)).body.data.impressions).toBe(1);
    });

    it('given a forged co-signature, when the impression is charged, then it is not witnessed', async () => {
      const adv = await funded(100);
      const ad = (await createAd(adv, { budget_spark: 50 })).body.data;
      const res = await view(await user(), ad.id, forged(await witnessed(ad.id, UNOPERATED)));
      expect(res.status).toBe(200);
      expect(res.body.data.witnessed).toBe(false);
    });
  });

  describe('money adds up', () => {
    it('advertiser: held = spent + refunded; spent = operator shares (90% witnessed, 50% not) + platform; the operator is paid whole spark; ad revenue booked', async () => {
      await settled(t);
      const revenueBefore = (await t.request('GET', '/api/revenue/dashboard?period_days=1', { token: admin.token })).body;
      const adsBefore = revenueBefore.revenue?.ad_revenue ?? revenueBefore.data?.revenue?.ad_revenue;
      const operatorBefore = (await wallet(operator)).spark;

      const adv = await funded(100);
      const ad = (await createAd(adv, { budget_spark: 60, cost_per_impression: 0.5, cost_per_click: 1.5 })).body.data;
      const viewers = await Promise.all([user(), user(), user()]);
      for (const v of viewers) {
        expect((await view(v, ad.id, await witnessed(ad.id))).body.data.witnessed).toBe(true); // 0.45
        expect((await view(v, ad.id, { node_id: OPERATED })).body.data.witnessed).toBe(false); // 0.25
        // signed by a key nobody registered: not witnessed
        expect((await view(v, ad.id, forged(await witnessed(ad.id)))).body.data.witnessed).toBe(false); // 0.25
        expect((await click(v, ad.id, await witnessed(ad.id))).body.data.witnessed).toBe(true); // 1.35
      }
      // spent 9 × 0.5 + 3 × 1.5 = 9; operator 3 × (0.45 + 0.25 + 0.25 + 1.35) = 6.9; platform 2.1
      const stats = (await analytics(adv, ad.id)).body.data;
      expect(stats).toMatchObject({ impressions: 9, clicks: 3, ctr: 33.33, spent_spark: 9, remaining_spark: 51, node_breakdown: [{ node_id: OPERATED, count: 12 }] });

      const deleted = await t.request('DELETE', `${P}/ads/${ad.id}`, { token: adv.token });
      expect(deleted.body.data).toEqual({ deleted: true, spark_refunded: 51 });
      await settled(t);
      expect((await wallet(adv)).spark).toBe(100 - 60 + 51);

      // the operator's shares: 6.9 accrued, 6 whole spark paid, 0.9 waiting for the next share
      const paid = (await wallet(operator)).spark - operatorBefore;
      expect(paid).toBe(6);
      const ledger = (await t.request('GET', `${P}/resonance/transactions?currency=spark&limit=100`, { token: operator.token })).body.data as { source_type: string; amount: number }[];
      expect(ledger.filter((r) => r.source_type === 'ad_revenue_share').reduce((s, r) => s + r.amount, 0)).toBe(paid + operatorBefore);

      const shares = 6.9;
      const platform = Math.round((stats.spent_spark - shares) * 100) / 100;
      expect(platform).toBe(2.1);
      expect(Math.round((deleted.body.data.spark_refunded + shares + platform) * 100) / 100).toBe(ad.budget_spark);

      const revenueAfter = (await t.request('GET', '/api/revenue/dashboard?period_days=1', { token: admin.token })).body;
      const adsAfter = revenueAfter.revenue?.ad_revenue ?? revenueAfter.data?.revenue?.ad_revenue;
      expect(Math.round((adsAfter - adsBefore) * 100) / 100).toBe(9);
      const analyticsAdmin = await t.request('GET', `${P}/admin/revenue-analytics`, { token: admin.token });
      expect(analyticsAdmin.body.data.overview.ad_revenue_cents).toBeGreaterThanOrEqual(900);
    });
  });

  describe('rebuild', () => {
    it('given everything above, when the ads read models are rebuilt from the log, then they equal the live ones', async () => {
      await settled(t);
      const operatorSpark = await eventually('the operator wallet', () => wallet(operator), (w) => w !== undefined);
      expect(operatorSpark.spark).toBeGreaterThan(0);
      await t.close(false);
      closed = true;
      const collections = ['ad_units', 'ad_impressions', 'ad_node_counts', 'resonance_wallets', 'revenue_daily'];
      const live = await readModelSnapshot(t.dataDir, collections);
      expect(live.ad_units.length).toBeGreaterThan(10);
      await rebuildProjections(t.dataDir);
      expect(await readModelSnapshot(t.dataDir, collections)).toEqual(live);
      rmSync(t.dataDir, { recursive: true, force: true });
    });
  });
});
