import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import { CHARGE_BODY_SCHEMA, chargeRequest, createAdRequest, serveRequest, statusQuery } from './ads.requests';

const valid = { title: 'Shoes', click_url: 'https://example.org' };
const statement = {
  impression_id: 'imp-1',
  ad_id: 'ad1',
  nonce: 'nonce-0001',
  requester_node_id: 'n1',
  requester_timestamp: 1_800_000_000_000,
  witness_node_id: 'w',
  witnessed_at: '2027-01-15T08:00:00.000Z',
};

describe('the ads routes’ readers', () => {
  it('given a minimal ad, then the defaults: budget 100, 0.1 per view, 1 per click, banner, no targeting', () =>
    expect(createAdRequest(valid)).toMatchObject({ budget_spark: 100, cost_per_impression: 0.1, cost_per_click: 1, ad_type: 'banner', targeting: { region_ids: [], community_ids: [], user_types: [] } }));

  it('given no title and a budget of 10, then the title is named first', () =>
    expect(() => createAdRequest({ click_url: 'https://x.org', budget_spark: 10 })).toThrow('Title and click_url are required'));

  it.each([
    [{ budget_spark: 10 }, 'Minimum budget is 50 Spark'],
    [{ budget_spark: 50.5 }, 'budget_spark must be a whole number of spark from 50 to 1000000'],
    [{ cost_per_click: 51, budget_spark: 50 }, 'cost_per_click must be a multiple of 0.01 spark from 0.01 to the budget'],
    [{ starts_at: '2026-12-02T00:00:00Z', ends_at: '2026-12-01T00:00:00Z' }, 'ends_at must be after starts_at'],
    [{ image_url: 'data:x' }, 'image_url must be an http(s) URL of at most 500 characters'],
    [{ targeting: { region_ids: [{ $gt: '' }] } }, 'targeting.region_ids must be a list of at most 50 ids'],
  ])('given %j, then 400 %s', (extra, message) => expect(() => createAdRequest({ ...valid, ...extra })).toThrow(message));

  it('given serve parameters, then the placement defaults to feed_top and an unknown one is refused', () => {
    expect(serveRequest({})).toEqual({ placement: 'feed_top', region: null, communityId: null, nodeId: null });
    expect(() => serveRequest({ placement: 'footer' })).toThrow('placement must be one of feed_top, sidebar, region_page, post_interstitial');
  });

  it('given a witness signature without its statement, then no witness', () =>
    expect(chargeRequest({ node_id: 'n1', witness_signature: 'a'.repeat(128) }).witness).toBeNull());

  it('given a malformed witness signature, then 400', () => expect(() => chargeRequest({ witness_signature: 'zz' })).toThrow('witness_signature must be 128 hex characters'));

  it('given a witness statement missing a field, then 400', () =>
    expect(() => chargeRequest({ witness: { ...statement, nonce: undefined }, witness_signature: 'a'.repeat(128) })).toThrow('witness must be a witness statement'));

  it('given a status that is not one of the four, then 400', () => expect(() => statusQuery('gone')).toThrow('status must be one of active, paused, exhausted, completed'));
});

describe('the ads routes’ body schemas agree with their readers', () => {
  it('given charge bodies, then the reader accepts exactly what the schema accepts', () =>
    expectReaderAgreesWithSchema(CHARGE_BODY_SCHEMA, chargeRequest, {
      valid: { node_id: 'n1' },
      candidates: {
        placement_id: ['sidebar', 'footer'],
        witness_signature: ['a'.repeat(128), 'zz'],
        witness: [statement, { ...statement, requester_timestamp: '2027-01-15T08:00:00.000Z' }, { ...statement, requester_timestamp: null }, { ...statement, witness_node_id: 7 }],
      },
    }));
});
