import { Writable } from 'node:stream';
import { createRootLogger } from './logger';
import { RECENT_LOGS, RecentLogs } from './recent-logs';

describe('RecentLogs', () => {
  const line = (level: string, msg: string) => JSON.stringify({ level, time: '2026-11-23T10:00:00.000Z', msg, context: 'Test' });

  it('given more lines than it holds, then it keeps the newest, newest first', () => {
    const ring = new RecentLogs(3);
    for (const n of [1, 2, 3, 4, 5]) ring.record(line('info', `m${n}`));
    expect(ring.entries(10, null).map((e) => e.message)).toEqual(['m5', 'm4', 'm3']);
  });

  it('filters by level and stops at the limit', () => {
    const ring = new RecentLogs(10);
    for (const [level, msg] of [['info', 'a'], ['warn', 'b'], ['info', 'c'], ['warn', 'd']]) ring.record(line(level, msg));
    expect(ring.entries(10, 'warn').map((e) => e.message)).toEqual(['d', 'b']);
    expect(ring.entries(1, null)).toEqual([{ time: '2026-11-23T10:00:00.000Z', level: 'warn', message: 'd', context: 'Test' }]);
  });

  it('given the root logger, then what it writes reaches the ring too', async () => {
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const logger = createRootLogger({ level: 'log', format: 'json', destination: sink });
    logger.warn({ context: 'RingTest' }, 'a line for the ring');
    await new Promise((resolve) => setImmediate(resolve));
    expect(RECENT_LOGS.entries(5, 'warn')).toEqual(expect.arrayContaining([expect.objectContaining({ message: 'a line for the ring', context: 'RingTest' })]));
  });
});
