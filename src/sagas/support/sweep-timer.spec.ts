import type { Logger } from '@nestjs/common';
import { SweepTimer } from './sweep-timer';

describe('sweep timer', () => {
  it('given a pass in flight, when another is asked for, then both share the one pass', async () => {
    let passes = 0;
    let finish: (n: number) => void = () => undefined;
    const timer = new SweepTimer(() => new Promise<number>((resolve) => ((passes += 1), (finish = resolve))), { logger: { warn: jest.fn() } as unknown as Logger, what: 'x', failed: 0 });
    const [a, b] = [timer.run(), timer.run()];
    finish(3);
    expect(await Promise.all([a, b])).toEqual([3, 3]);
    expect(passes).toBe(1);
  });

  it('given a failing pass, then it is logged and answers the failure value; the next pass runs again', async () => {
    const warn = jest.fn();
    const timer = new SweepTimer(() => Promise.reject(new Error('store down')), { logger: { warn } as unknown as Logger, what: 'the sweep', failed: -1 });
    expect(await timer.run()).toBe(-1);
    expect(warn).toHaveBeenCalledWith('the sweep failed: store down');
    expect(await timer.run()).toBe(-1);
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
