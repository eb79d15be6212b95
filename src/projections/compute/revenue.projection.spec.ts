import type { RevenueStream } from '../../aggregates/compute/revenue-entry';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { REVENUE_DAILY, revenueProjection as projection } from './revenue.projection';

const usage = (id: string, cents: number, at: string) =>
  recorded('ApiUsageMetered', {
    usage_id: id,
    key_id: '0123456789abcdef',
    user_id: 'u1',
    tier: 'free',
    model: 'agent-platform-1',
    prompt_tokens: 10,
    completion_tokens: 5,
    amount_cents: cents,
    occurred_at: at,
  });

const revenue = (stream: RevenueStream, cents: number, at: string) =>
  recorded('RevenueRecorded', { entry_id: `${stream}-${at}`, stream, amount_cents: cents, occurred_at: at, recorded_at: at });

describe('revenue projection', () => {
  it('given entries on two UTC days, then each day sums its integer cents per stream', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      revenue('api', 333, '2026-11-22T23:59:59.000Z'),
      revenue('api', 1, '2026-11-22T00:00:00.000Z'),
      revenue('hosting_payout', 7, '2026-11-23T00:00:00.000Z'),
    );
    expect(await store.collection(REVENUE_DAILY).findOne({ _id: '2026-11-22' })).toMatchObject({ day: '2026-11-22', api_cents: 334, entries: 2 });
    expect(await store.collection(REVENUE_DAILY).findOne({ _id: '2026-11-23' })).toMatchObject({ hosting_payout_cents: 7, entries: 1 });
  });

  it('given entries, when they are replayed, then nothing is counted twice', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [revenue('ad', 5, '2026-11-24T10:00:00.000Z'), revenue('ad', 6, '2026-11-24T11:00:00.000Z')];
    await applyAll(projection, store, ...events);
    await applyAll(projection, store, ...events);
    expect(await store.collection(REVENUE_DAILY).findOne({ _id: '2026-11-24' })).toMatchObject({ ad_cents: 11, entries: 2 });
  });

  it('given metered /v1 calls, then they count as api revenue (0 cents on the free tier), as calls and as tokens', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [usage('c1', 0, '2026-11-25T10:00:00.000Z'), usage('c2', 0, '2026-11-25T11:00:00.000Z'), revenue('api', 40, '2026-11-25T12:00:00.000Z')];
    await applyAll(projection, store, ...events);
    await applyAll(projection, store, ...events);
    expect(await store.collection(REVENUE_DAILY).findOne({ _id: '2026-11-25' })).toMatchObject({ api_cents: 40, api_calls: 2, api_tokens: 30, entries: 1 });
  });
});
