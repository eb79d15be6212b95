import { waitAtMost } from './wait-at-most';

describe('waitAtMost', () => {
  it('given a promise that settles in time, then true', async () => {
    await expect(waitAtMost(Promise.resolve(), 1000)).resolves.toBe(true);
  });

  it('given a promise that rejects in time, then true and no rejection escapes', async () => {
    await expect(waitAtMost(Promise.reject(new Error('x')), 1000)).resolves.toBe(true);
  });

  it('given a promise that never settles, then false after the limit', async () => {
    await expect(waitAtMost(new Promise(() => undefined), 20)).resolves.toBe(false);
  });
});
