import { deciderKit } from '../../../test/support/decider-kit';
import { type RevenueEntryCommand, revenueEntryDecider, type RevenueEntryEvent } from './revenue-entry';
import { centsToUnits, splitRevenue } from './revenue-split';

const now = new Date('2026-11-22T10:00:00.000Z');

describe('revenue split 90 / 9 / 1', () => {
  it.each([0, 1, 7, 99, 100, 101, 199, 333, 1001, 9999, 12345, 100_000_007, 4_294_967_297])('sums to the gross to the cent for %d cents', (gross) => {
    const split = splitRevenue(gross);
    expect(split.user_pool_cents + split.infra_pool_cents + split.central_cents).toBe(gross);
    for (const part of Object.values(split)) expect(Number.isInteger(part) && part >= 0).toBe(true);
  });

  it.each([
    [100, 90, 9, 1],
    [1, 1, 0, 0],
    [99, 91, 8, 0],
    [101, 91, 9, 1],
    [12345, 11111, 1111, 123],
  ])('%d cents: user %d, infra %d, central %d (remainder cents go to the user pool)', (gross, user, infra, central) => {
    expect(splitRevenue(gross)).toEqual({ user_pool_cents: user, infra_pool_cents: infra, central_cents: central });
  });

  it('refuses fractional or negative cents', () => {
    expect(() => splitRevenue(1.5)).toThrow(RangeError);
    expect(() => splitRevenue(-1)).toThrow(RangeError);
  });

  it('turns cents into units with two decimals', () => {
    expect(centsToUnits(12345)).toBe(123.45);
    expect(centsToUnits(1)).toBe(0.01);
  });
});

describe('revenue entry', () => {
  const { given } = deciderKit(revenueEntryDecider, now);
  const record: RevenueEntryCommand = { kind: 'record', entryId: 'e1', stream: 'api', amountCents: 250, occurredAt: null };
  const recorded: RevenueEntryEvent = {
    type: 'RevenueRecorded',
    data: { entry_id: 'e1', stream: 'api', amount_cents: 250, occurred_at: now.toISOString(), recorded_at: now.toISOString() },
  };

  it('given nothing, when recording, then RevenueRecorded at now', () => given().when(record).then(recorded));

  it('given the entry exists, when recorded again, then nothing', () => given(recorded).when(record).thenNothing());

  it.each([
    ['fractional cents', { amountCents: 2.5 }, 'amount_cents must be a positive integer'],
    ['an unknown stream', { stream: 'tips' as never }, 'stream must be one of api, ad, hosting_payout'],
    ['a future time', { occurredAt: '2027-01-01T00:00:00Z' }, 'occurred_at must not be in the future'],
  ])('given nothing, when recording %s, then it is refused as invalid', (_, change, message) =>
    given()
      .when({ ...record, ...change })
      .thenRefused('invalid', message));
});
