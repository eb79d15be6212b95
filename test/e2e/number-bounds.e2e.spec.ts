/**
 * Every number of a request body has a finite, documented range (docs/api.md):
 * 1e308 is refused with a 400 naming the field and its range, instead of
 * being stored for ever and turning dashboard sums into null.
 */
import { startTestApp, type TestApp } from '../support/app';
import { discoverableUser, newUser, post } from '../support/encounter';

const ADMIN = 'boundsadmin';

describe('number bounds', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN });
    const registered = await t.request('POST', '/api/social/register', {
      body: { username: ADMIN, email: 'bounds@example.com', password: 'correct horse battery' },
    });
    admin = registered.body.data.token;
  });
  afterAll(() => t.close());

  const error = (text: string) => ({ status: 400, body: { success: false, error: text } });

  it.each([
    ['POST', '/api/settings/compute/provider/join', { offered_gpu_hours_per_day: 1e308 }, 'offered_gpu_hours_per_day must be a number from 0 to 24576'],
    ['PUT', '/api/settings/compute', { offered_gpu_hours_per_day: 24577 }, 'offered_gpu_hours_per_day must be a number from 0 to 24576'],
    ['PUT', '/api/settings/compute', { metered_daily_limit_usd: 2e9 }, 'metered_daily_limit_usd must be a number from 0 to 1000000000'],
    ['PUT', '/api/settings/compute', { min_settlement_spark: 1.5 }, 'min_settlement_spark must be an integer from 0 to 1000000000'],
    ['PUT', '/api/settings/compute', { electricity_rate_kwh: -0.1 }, 'electricity_rate_kwh must be a number from 0 to 1000'],
    ['POST', '/api/settings/compute/provider/served', { gpu_hours: 1e308 }, 'gpu_hours must be a number from 0 to 1000000'],
    ['POST', '/api/settings/compute/provider/served', { inferences: 1e13 }, 'inferences must be an integer from 0 to 1000000000000'],
    ['POST', '/api/settings/compute/provider/served', { energy_kwh: '5' }, 'energy_kwh must be a number from 0 to 1000000000'],
    ['POST', '/api/settings/compute/provider/settlements', { amount_usd: 1e10 }, 'amount_usd must be a number from 0.01 to 1000000000'],
    ['POST', '/api/revenue/records', { stream: 'api', amount_cents: 1e12 }, 'amount_cents must be an integer from 1 to 100000000000'],
  ])('given an out-of-range number, when calling %s %s, then 400 naming the field and its range', async (method, path, body, text) => {
    expect(await t.request(method, path, { token: admin, body })).toMatchObject(error(text));
  });

  it('given the largest figures in range, when reporting served compute, then they are recorded', async () => {
    const res = await t.request('POST', '/api/settings/compute/provider/served', {
      token: admin,
      body: { gpu_hours: 1e6, inferences: 1e12, energy_kwh: 1e9, metered_api_cost_usd: 1e9 },
    });
    expect(res.status).toBe(201);
  });

  it.each([
    [{ rssi_peak: -500 }, 'rssi_peak must be an integer from -128 to 127'],
    [{ dwell_sec: 1e12 }, 'dwell_sec must be an integer from 0 to 86400'],
  ])('given a sighting with %j, when recorded, then 400 naming the field and its range', async (figures, text) => {
    const peer = await discoverableUser(t);
    const res = await post(t, await newUser(t), '/sighting', { peer_pubkey: peer.pubkey, ...figures });
    expect(res).toMatchObject(error(text));
  });
});
