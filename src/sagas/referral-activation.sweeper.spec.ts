import type { CommandBus } from '@nestjs/cqrs';
import type { Clock } from '../infrastructure/clock';
import type { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import type { CheckReferralActivation } from '../modules/referrals/referrals.commands';
import type { ReferralsQueries } from '../modules/referrals/referrals.queries';
import { ReferralActivationSweeper } from './referral-activation.sweeper';

const now = new Date('2026-11-23T12:00:00.000Z');
const DAY = 24 * 3600_000;

function sweeper(writesInBackground: boolean, pending: string[] = []) {
  const queries = { pendingRegisteredBetween: jest.fn().mockResolvedValue(pending) };
  const commands = { execute: jest.fn().mockResolvedValue(undefined) };
  const lifecycle = { writesInBackground: () => writesInBackground } as unknown as PlatformLifecycle;
  const clock = { now: () => now } as Clock;
  const subject = new ReferralActivationSweeper(queries as unknown as ReferralsQueries, commands as unknown as CommandBus, clock, lifecycle);
  return { subject, queries, commands };
}

describe('referral activation sweeper', () => {
  afterEach(() => jest.restoreAllMocks());

  it('given a process that appends nothing in the background (an API process, a regional node), then it never starts its timer', () => {
    const every = jest.spyOn(global, 'setInterval');
    sweeper(false).subject.onApplicationBootstrap();
    expect(every).not.toHaveBeenCalled();
  });

  it('given a central node, then it sweeps hourly', async () => {
    const every = jest.spyOn(global, 'setInterval');
    const { subject } = sweeper(true);
    subject.onApplicationBootstrap();
    expect(every).toHaveBeenCalledWith(expect.any(Function), 3600_000);
    await subject.onModuleDestroy();
  });

  it('given pending referrals of accounts 3 to 10 days old, then each referred user is checked', async () => {
    const { subject, queries, commands } = sweeper(true, ['bob', 'cat']);
    expect(await subject.sweep()).toBe(2);
    const [from, to] = queries.pendingRegisteredBetween.mock.calls[0] as [Date, Date];
    expect([now.getTime() - to.getTime(), now.getTime() - from.getTime()]).toEqual([3 * DAY - 1, 10 * DAY - 1]);
    expect(commands.execute.mock.calls.map(([c]: [CheckReferralActivation]) => c.payload)).toEqual([{ referredId: 'bob' }, { referredId: 'cat' }]);
  });
});
