import { BusMessage } from '../message-bus.port';
import { InProcessBus, partitionFor } from './in-process-bus';
import { eventually } from '../../../../test/support/eventually';

const numbers = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({ key: `k${from + i}`, value: { n: from + i } }));
const n = (message: BusMessage) => (message.value as { n: number }).n;

describe('InProcessBus (adapter specifics)', () => {
  let bus: InProcessBus;
  afterEach(() => bus.close());

  it('given a key, when partitioned, then it always lands on the same partition and keys spread over all', () => {
    bus = new InProcessBus();
    expect(partitionFor('agent-42', 4)).toBe(partitionFor('agent-42', 4));
    const used = new Set(Array.from({ length: 100 }, (_, i) => partitionFor(`agent-${i}`, 4)));
    expect(used).toEqual(new Set([0, 1, 2, 3]));
  });

  it('given every group consumed a topic, when the last offset is committed, then the log holds nothing', async () => {
    bus = new InProcessBus();
    let handled = 0;
    for (const groupId of ['a', 'b']) {
      await bus.subscribe({ groupId, topics: ['t'], fromBeginning: true }, async () => void handled++);
    }
    await bus.publish('t', numbers(1000));
    await eventually('both groups handled everything', () => handled === 2000);
    expect(bus.retainedMessages('t')).toBe(0);
  });

  it('given a stopped group lagging behind, when retention is exceeded, then old messages are dropped and it resumes at the oldest kept', async () => {
    bus = new InProcessBus({ partitions: 1, retention: 10 });
    const seen: number[] = [];
    const subscription = await bus.subscribe({ groupId: 'slow', topics: ['t'], fromBeginning: true }, async (m) => void seen.push(n(m)));
    await subscription.stop();
    await bus.publish('t', numbers(25));
    expect(bus.retainedMessages('t')).toBe(10);

    await bus.subscribe({ groupId: 'slow', topics: ['t'] }, async (m) => void seen.push(n(m)));
    await eventually('the kept messages were handled', () => seen.length === 10);
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => 15 + i));
  });

  it('given a handler in flight, when the bus closes, then close waits for it and nothing is delivered afterwards', async () => {
    bus = new InProcessBus();
    const order: string[] = [];
    let calls = 0;
    await bus.subscribe({ groupId: 'g', topics: ['t'], fromBeginning: true }, async () => {
      calls++;
      // a slow handler: part of the given, it is still running 20 ms after close() was called
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('handler returned');
    });
    await bus.publish('t', [{ key: 'k', value: 1 }, { key: 'k', value: 2 }]);
    await eventually('the handler started', () => calls === 1);

    await bus.close().then(() => order.push('closed'));

    expect(order).toEqual(['handler returned', 'closed']);
    expect(calls).toBe(1); // close() is the drain: the second message never reached the handler
    await expect(bus.publish('t', [{ key: 'k', value: 3 }])).rejects.toThrow('closed');
  });

  it('given two members, when one stops, then the other takes over its partitions and receives everything after', async () => {
    bus = new InProcessBus();
    const first: number[] = [];
    const second: number[] = [];
    const leaving = await bus.subscribe({ groupId: 'g', topics: ['t'], fromBeginning: true }, async (m) => void first.push(n(m)));
    await bus.subscribe({ groupId: 'g', topics: ['t'], fromBeginning: true }, async (m) => void second.push(n(m)));
    await bus.publish('t', numbers(40));
    await eventually('the first 40 were handled', () => first.length + second.length === 40);
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);

    await leaving.stop();
    await bus.publish('t', numbers(40, 40));
    await eventually('the remaining member handled the next 40', () => second.filter((value) => value >= 40).length === 40);
    expect(first.every((value) => value < 40)).toBe(true);
  });

  it('given a failing handler, when it is retried, then the retry waits retryDelayMs', async () => {
    bus = new InProcessBus({ retryDelayMs: 60, onHandlerError: () => undefined });
    const attempts: number[] = [];
    await bus.subscribe({ groupId: 'g', topics: ['t'], fromBeginning: true }, async () => {
      attempts.push(Date.now());
      if (attempts.length === 1) throw new Error('once');
    });
    await bus.publish('t', [{ key: 'k', value: null }]);
    await eventually('the retry happened', () => attempts.length === 2);
    expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(55);
  });

  it('given a failing handler, when it fails, then onHandlerError hears about it with the message', async () => {
    const failures: { error: unknown; message: BusMessage }[] = [];
    bus = new InProcessBus({ retryDelayMs: 5, onHandlerError: (error, message) => failures.push({ error, message }) });
    let calls = 0;
    await bus.subscribe({ groupId: 'g', topics: ['t'], fromBeginning: true }, async () => {
      if (++calls === 1) throw new Error('boom');
    });
    await bus.publish('t', [{ key: 'k', value: { a: 1 } }]);
    await eventually('the retry succeeded', () => calls === 2);
    expect(failures).toHaveLength(1);
    expect((failures[0].error as Error).message).toBe('boom');
    expect(failures[0].message).toMatchObject({ key: 'k', value: { a: 1 } });
  });

  it('given a value that cannot be serialised, when publishing a batch, then nothing of the batch is appended', async () => {
    bus = new InProcessBus();
    await expect(bus.publish('t', [{ key: 'a', value: 1 }, { key: 'b', value: { big: BigInt(1) } }])).rejects.toThrow();
    expect(bus.retainedMessages('t')).toBe(0);
  });
});
