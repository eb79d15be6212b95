import { deciderKit } from '../../../test/support/decider-kit';
import {
  AD_NOT_FOUND,
  adUnitDecider,
  type AdUnitCommand,
  type AdUnitEvent,
  BUDGET_EXHAUSTED,
  type ChargeAd,
  CLICK_RATE_LIMITED,
  MINIMUM_BUDGET,
  operatorShareMilli,
  toCenti,
  VIEW_RATE_LIMITED,
} from './ad-unit';

const t0 = new Date('2026-12-01T10:00:00.000Z');
const minutes = (n: number) => new Date(t0.getTime() + n * 60_000);
const { given, history } = deciderKit(adUnitDecider, t0);

const create = (extra: Partial<AdUnitCommand & { kind: 'create' }> = {}): AdUnitCommand => ({
  kind: 'create',
  ad_id: 'ad1',
  advertiser_id: 'ann',
  title: 'Buy',
  content: '',
  image_url: null,
  click_url: 'https://example.org',
  ad_type: 'banner',
  targeting: { region_ids: [], community_ids: [], user_types: [] },
  budget_spark: 50,
  cost_per_impression: 0.1,
  cost_per_click: 1,
  starts_at: null,
  ends_at: null,
  ...extra,
});

let n = 0;
const charge = (extra: Partial<ChargeAd> = {}): ChargeAd => ({
  kind: 'charge',
  impressionId: `imp${++n}`,
  type: 'view',
  userId: 'bob',
  placementId: 'feed_top',
  nodeId: null,
  regionId: null,
  witnessNodeId: null,
  witnessSignature: null,
  witnessVerified: false,
  operatorId: null,
  ...extra,
});

const created = history(create());
const recorded = (events: AdUnitEvent[]) => events.filter((e) => e.type === 'AdImpressionRecorded') as Extract<AdUnitEvent, { type: 'AdImpressionRecorded' }>[];

describe('ad unit', () => {
  it('given nothing, when created, then AdUnitCreated with the fields and the time', () =>
    expect(given().when(create()).events()).toEqual([{ type: 'AdUnitCreated', data: expect.objectContaining({ ad_id: 'ad1', budget_spark: 50, created_at: t0.toISOString() }) }]));

  it.each([49, 50.5, 2_000_000])('given a budget of %s, when created, then refused with the minimum budget text', (budget) =>
    given().when(create({ budget_spark: budget })).thenRefused('invalid', MINIMUM_BUDGET));

  it.each([0, 0.001, 51])('given a cost per impression of %s, when created, then refused', (cost) =>
    given().when(create({ cost_per_impression: cost })).thenRefused('invalid', /cost_per_impression/));

  it('given an active ad, when a view is charged, then spent_spark keeps its fraction (0.1, not truncated)', () => {
    const [event] = recorded(given(...created).when(charge()).events());
    expect(event.data).toMatchObject({ impression_type: 'view', cost_spark: 0.1, spent_spark: 0.1, operator_id: null, operator_share_spark: 0, witnessed: false });
    expect(event.data.sealed_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('given three views of bob in the last hour, when a fourth, then 429 Rate limit exceeded; an hour later, accepted', () => {
    const past = history(create(), charge(), charge(), charge());
    given(...past).when(charge()).thenRefused('rate_limited', VIEW_RATE_LIMITED);
    expect(recorded(given(...past).when(charge(), minutes(61)).events())).toHaveLength(1);
    expect(recorded(given(...past).when(charge({ userId: 'cat' })).events())).toHaveLength(1);
  });

  it('given a click of bob this hour, when another, then 429 Click rate limit exceeded', () =>
    given(...history(create(), charge({ type: 'click' }))).when(charge({ type: 'click' })).thenRefused('rate_limited', CLICK_RATE_LIMITED));

  it('given a budget the next charge would pass, when charged, then the unit is exhausted and no longer found', () => {
    const past = history(create(), ...Array.from({ length: 50 }, (_, i) => charge({ type: 'click', userId: `u${i}` })));
    const exhausted = given(...past).when(charge({ userId: 'late' })).events();
    expect(exhausted).toEqual([{ type: 'AdUnitExhausted', data: expect.objectContaining({ budget_spark: 50, spent_spark: 50 }) }]);
    given(...past, ...exhausted).when(charge({ userId: 'later' })).thenRefused('not_found', AD_NOT_FOUND);
    expect(BUDGET_EXHAUSTED).toBe('Ad budget exhausted');
  });

  it('given a node with an operator, then 50% of the cost unwitnessed, 90% witnessed, to the milli-spark', () => {
    const [plain] = recorded(given(...created).when(charge({ nodeId: 'n1', operatorId: 'op' })).events());
    expect(plain.data).toMatchObject({ operator_id: 'op', operator_share_spark: 0.05, witnessed: false });
    const [seen] = recorded(given(...created).when(charge({ nodeId: 'n1', operatorId: 'op', witnessNodeId: 'n2', witnessSignature: 'ab', witnessVerified: true })).events());
    expect(seen.data).toMatchObject({ operator_share_spark: 0.09, witnessed: true });
  });

  it('given a witness signature bob already used this hour, then the next charge is not witnessed', () => {
    const witnessed = { nodeId: 'n1', operatorId: 'op', witnessNodeId: 'n2', witnessSignature: 'ab', witnessVerified: true };
    const [again] = recorded(given(...history(create(), charge(witnessed))).when(charge(witnessed)).events());
    expect(again.data).toMatchObject({ witnessed: false, operator_share_spark: 0.05 });
  });

  it('given charges, when the advertiser completes it, then the unspent budget is refunded to the centi-spark', () => {
    const past = history(create(), charge(), charge({ type: 'click' }));
    expect(given(...past).when({ kind: 'complete', by: 'ann', asAdmin: false }).events()).toEqual([
      { type: 'AdUnitCompleted', data: expect.objectContaining({ budget_spark: 50, spent_spark: 1.1, refunded_spark: 48.9, completed_by: 'ann' }) },
    ]);
  });

  it('given an ad of ann, when another user completes it, then not found; an admin may', () => {
    given(...created).when({ kind: 'complete', by: 'bob', asAdmin: false }).thenRefused('not_found', AD_NOT_FOUND);
    expect(given(...created).when({ kind: 'complete', by: 'root', asAdmin: true }).events()).toHaveLength(1);
  });

  it('given a completed ad, when charged or completed again, then not found', () => {
    const done = [...created, ...given(...created).when({ kind: 'complete', by: 'ann', asAdmin: false }).events()];
    given(...done).when(charge()).thenRefused('not_found', AD_NOT_FOUND);
    given(...done).when({ kind: 'complete', by: 'ann', asAdmin: false }).thenRefused('not_found', AD_NOT_FOUND);
  });

  it('money helpers: centi-spark and operator shares are exact', () => {
    expect([toCenti(0.1), toCenti(1.23), toCenti(0.001)]).toEqual([10, 123, null]);
    expect([operatorShareMilli(1, true), operatorShareMilli(1, false), operatorShareMilli(10, true)]).toEqual([9, 5, 90]);
  });
});
