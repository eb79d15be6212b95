import { PositionWaiters } from './position-waiters';

describe('PositionWaiters', () => {
  it('given the projections are already there, when waiting, then it resolves true at once', async () => {
    const waiters = new PositionWaiters();
    await expect(waiters.waitFor(['a'], 5, 1000, () => 5)).resolves.toBe(true);
  });

  it('given a projection behind, when it moves past the position and notifies, then the wait resolves true', async () => {
    const waiters = new PositionWaiters();
    let at = 1;
    const wait = waiters.waitFor(['a', 'b'], 3, 1000, () => at);
    at = 3;
    waiters.notify();
    await expect(wait).resolves.toBe(true);
  });

  it('given a projection that never arrives, when the deadline passes, then the wait resolves false', async () => {
    const waiters = new PositionWaiters();
    await expect(waiters.waitFor(['a'], 3, 20, () => 1)).resolves.toBe(false);
  });

  it('given pending waits, when cancelled, then they resolve false', async () => {
    const waiters = new PositionWaiters();
    const wait = waiters.waitFor(['a'], 3, 10_000, () => 1);
    waiters.cancelAll();
    await expect(wait).resolves.toBe(false);
  });
});
