import { startTestApp, type TestApp } from '../support/app';

describe('probes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SVC_VERSION: '9.9.9-test' });
  });
  afterAll(() => t.close());

  it('GET /status answers status, version and uptime in whole seconds', async () => {
    const res = await t.request('GET', '/status');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', version: '9.9.9-test' });
    expect(Number.isInteger(res.body.uptime_seconds)).toBe(true);
  });

  it('GET /health answers alive', async () => {
    const res = await t.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'alive' });
  });

  it('GET /ready answers true once stores and projections are up', async () => {
    const res = await t.request('GET', '/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ready: true });
  });
});
