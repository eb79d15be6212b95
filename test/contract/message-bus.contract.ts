/**
 * The message bus contract: written against the port only, so the in-process
 * bus and the Kafka adapter run it unchanged. Delivery on Kafka takes
 * seconds (group joins, rebalances), so every expectation polls with a
 * generous deadline instead of sleeping a fixed time.
 *
 * Every test uses its own topics and groups.
 */
import { randomBytes } from 'node:crypto';
import {
  BusMessage,
  BusSubscription,
  MessageBus,
  MessageHandler,
  SubscribeOptions,
} from '../../src/infrastructure/bus/message-bus.port';
import { eventually } from '../support/eventually';

export interface MessageBusUnderTest {
  bus: MessageBus;
  /** closes the bus and removes what the test created */
  cleanup: () => Promise<void>;
}

const DEADLINE_MS = 30_000;
/** Every wait's bound: on Kafka, group joins and rebalances take seconds. */
const PATIENTLY = { timeoutMs: DEADLINE_MS, intervalMs: 20 };
const TEST_TIMEOUT_MS = 90_000;

const runId = randomBytes(3).toString('hex');
let counter = 0;
function uniqueName(label: string): string {
  counter += 1;
  return `${label}-${runId}-${counter}`;
}

interface Numbered {
  n: number;
  key?: string;
}

const valueOf = (message: BusMessage): Numbered => message.value as Numbered;

export function describeMessageBusContract(
  adapterName: string,
  createBus: () => Promise<MessageBusUnderTest>,
): void {
  describe(`MessageBus contract (${adapterName})`, () => {
    let current: MessageBusUnderTest | null = null;
    let subscriptions: BusSubscription[] = [];
    const bus = (): MessageBus => {
      if (!current) throw new Error('no bus: used outside a test');
      return current.bus;
    };
    const subscribe = async (options: SubscribeOptions, handler: MessageHandler): Promise<BusSubscription> => {
      const subscription = await bus().subscribe(options, handler);
      subscriptions.push(subscription);
      return subscription;
    };
    /** A handler that records what it was given. */
    const recorder = () => {
      const received: BusMessage[] = [];
      const handler: MessageHandler = async (message) => {
        received.push(message);
      };
      return { received, handler, numbers: () => received.map((m) => valueOf(m).n) };
    };
    const publishNumbers = (topic: string, from: number, to: number, keyOf: (n: number) => string) =>
      bus().publish(
        topic,
        Array.from({ length: to - from }, (_, i) => ({ key: keyOf(from + i), value: { n: from + i, key: keyOf(from + i) } })),
      );

    beforeEach(async () => {
      current = await createBus();
    }, TEST_TIMEOUT_MS);

    afterEach(async () => {
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));
      subscriptions = [];
      await current?.cleanup();
      current = null;
    }, TEST_TIMEOUT_MS);

    it('given a subscriber, when a message is published, then its key, value and headers are delivered', async () => {
      const topic = uniqueName('delivery');
      const { received, handler } = recorder();
      await subscribe({ groupId: uniqueName('g'), topics: [topic], fromBeginning: true }, handler);
      const before = Date.now();
      await bus().publish(topic, [
        { key: 'agent-1', value: { type: 'AgentCreated', data: { name: 'a', tags: ['x'] } }, headers: { 'correlation-id': 'c-1' } },
      ]);

      await eventually('the message arrived', () => received.length === 1, PATIENTLY);
      const [message] = received;
      expect(message).toMatchObject({
        topic,
        key: 'agent-1',
        value: { type: 'AgentCreated', data: { name: 'a', tags: ['x'] } },
        headers: { 'correlation-id': 'c-1' },
      });
      expect(Number.isInteger(message.partition) && message.partition >= 0).toBe(true);
      expect(Number.isInteger(message.offset) && message.offset >= 0).toBe(true);
      expect(new Date(message.timestamp).toISOString()).toBe(message.timestamp);
      expect(Date.parse(message.timestamp)).toBeGreaterThanOrEqual(before - 60_000);
    }, TEST_TIMEOUT_MS);

    it('given a topic name Kafka would refuse, when publishing or subscribing, then every adapter refuses it', async () => {
      await expect(bus().publish('no spaces allowed', [{ key: 'k', value: 1 }])).rejects.toThrow(/invalid topic name/);
      await expect(bus().subscribe({ groupId: 'g-invalid', topics: ['a/b'] }, async () => undefined)).rejects.toThrow(
        /invalid topic name/,
      );
    });

    it('given a published value, when the publisher mutates it afterwards, then consumers still see what was published', async () => {
      const topic = uniqueName('copy');
      const { received, handler } = recorder();
      await subscribe({ groupId: uniqueName('g'), topics: [topic], fromBeginning: true }, handler);
      const value = { list: [1], nested: { a: 1 } };
      await bus().publish(topic, [{ key: 'k', value }]);
      value.list.push(2);
      value.nested.a = 2;

      await eventually('the message arrived', () => received.length === 1, PATIENTLY);
      expect(received[0].value).toEqual({ list: [1], nested: { a: 1 } });
    }, TEST_TIMEOUT_MS);

    it('given two groups, when messages are published, then each group receives every message', async () => {
      const topic = uniqueName('fanout');
      const first = recorder();
      const second = recorder();
      await subscribe({ groupId: uniqueName('g1'), topics: [topic], fromBeginning: true }, first.handler);
      await subscribe({ groupId: uniqueName('g2'), topics: [topic], fromBeginning: true }, second.handler);
      await publishNumbers(topic, 0, 20, (n) => `k${n % 5}`);

      await eventually('both groups got 20', () => first.received.length >= 20 && second.received.length >= 20, PATIENTLY);
      const all = Array.from({ length: 20 }, (_, n) => n);
      expect([...new Set(first.numbers())].sort((a, b) => a - b)).toEqual(all);
      expect([...new Set(second.numbers())].sort((a, b) => a - b)).toEqual(all);
    }, TEST_TIMEOUT_MS);

    it('given two members of one group, when messages are published, then they split them with none lost or duplicated', async () => {
      const topic = uniqueName('split');
      const groupId = uniqueName('g');
      const first = recorder();
      const second = recorder();
      await subscribe({ groupId, topics: [topic], fromBeginning: true }, first.handler);
      await subscribe({ groupId, topics: [topic], fromBeginning: true }, second.handler);

      // Publish batches over fresh keys until both members got a share: on Kafka
      // the partitions are dealt out only once the rebalance has settled.
      const deadline = Date.now() + DEADLINE_MS;
      let published = 0;
      while (first.received.length === 0 || second.received.length === 0) {
        if (Date.now() > deadline) throw new Error('one member of the group never received a message');
        await publishNumbers(topic, published, published + 20, (n) => `key-${n}`);
        published += 20;
        await eventually(`${published} messages were consumed`, () => first.received.length + second.received.length >= published, PATIENTLY);
      }

      const everything = [...first.numbers(), ...second.numbers()].sort((a, b) => a - b);
      expect(everything).toEqual(Array.from({ length: published }, (_, n) => n));
      expect(first.numbers().filter((n) => second.numbers().includes(n))).toEqual([]);
    }, TEST_TIMEOUT_MS);

    it('given 200 messages over 10 keys, when consumed, then each key is handled in publish order, one at a time', async () => {
      const topic = uniqueName('order');
      const handledByKey = new Map<string, number[]>();
      const offsetsByKey = new Map<string, number[]>();
      const busyKeys = new Set<string>();
      let overlapped = false;
      let total = 0;
      await subscribe({ groupId: uniqueName('g'), topics: [topic], fromBeginning: true }, async (message) => {
        const { n } = valueOf(message);
        if (busyKeys.has(message.key)) overlapped = true;
        busyKeys.add(message.key);
        await new Promise((resolve) => setTimeout(resolve, n % 3)); // uneven handler times
        busyKeys.delete(message.key);
        handledByKey.set(message.key, [...(handledByKey.get(message.key) ?? []), n]);
        offsetsByKey.set(message.key, [...(offsetsByKey.get(message.key) ?? []), message.offset]);
        total += 1;
      });
      for (let batch = 0; batch < 4; batch++) {
        await publishNumbers(topic, batch * 50, batch * 50 + 50, (n) => `key-${n % 10}`);
      }

      await eventually('200 messages were handled', () => total >= 200, PATIENTLY);
      expect(overlapped).toBe(false);
      for (let k = 0; k < 10; k++) {
        const expected = Array.from({ length: 20 }, (_, i) => i * 10 + k);
        expect({ key: k, handled: handledByKey.get(`key-${k}`) }).toEqual({ key: k, handled: expected });
        const offsets = offsetsByKey.get(`key-${k}`)!;
        expect(offsets.every((offset, i) => i === 0 || offset > offsets[i - 1])).toBe(true);
      }
    }, TEST_TIMEOUT_MS);

    it('given a handler busy with a message of one partition, when other partitions have messages, then they are handled meanwhile', async () => {
      const topic = uniqueName('partitions');
      await publishNumbers(topic, 0, 40, (n) => `key-${n}`); // 40 keys: spread over every partition
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      let busyPartition: number | null = null;
      const others: number[] = [];
      await subscribe({ groupId: uniqueName('g'), topics: [topic], fromBeginning: true }, async (message) => {
        if (busyPartition === null) {
          busyPartition = message.partition;
          await released;
        } else if (message.partition !== busyPartition) {
          others.push(valueOf(message).n);
        }
      });

      try {
        await eventually('a message of another partition was handled', () => others.length > 0);
      } finally {
        release(); // the subscription's stop waits for the busy handler
      }
    }, TEST_TIMEOUT_MS);

    it('given a handler that throws once, when a message fails, then it is delivered again before the next one of its key', async () => {
      const topic = uniqueName('retry');
      const attempts = new Map<number, number>();
      const handled: number[] = [];
      await subscribe({ groupId: uniqueName('g'), topics: [topic], fromBeginning: true }, async (message) => {
        const { n } = valueOf(message);
        const attempt = (attempts.get(n) ?? 0) + 1;
        attempts.set(n, attempt);
        if (n === 1 && attempt === 1) throw new Error('transient failure');
        handled.push(n);
      });
      await publishNumbers(topic, 0, 3, () => 'same-key');

      await eventually('all three were handled', () => new Set(handled).size === 3, PATIENTLY);
      expect(attempts.get(1)).toBeGreaterThanOrEqual(2);
      // at-least-once allows repeats; what matters is the first success of each, in order
      expect([...new Set(handled)]).toEqual([0, 1, 2]);
    }, TEST_TIMEOUT_MS);

    it('given a group that stopped, when it subscribes again, then it resumes after what it had handled', async () => {
      const topic = uniqueName('resume');
      const groupId = uniqueName('g');
      const first = recorder();
      const subscription = await subscribe({ groupId, topics: [topic], fromBeginning: true }, first.handler);
      await publishNumbers(topic, 0, 5, (n) => `k${n % 2}`);
      await eventually('the first five were handled', () => new Set(first.numbers()).size === 5, PATIENTLY);
      await subscription.stop();

      await publishNumbers(topic, 5, 10, (n) => `k${n % 2}`);
      const second = recorder();
      // fromBeginning only applies to a group without committed offsets
      await subscribe({ groupId, topics: [topic], fromBeginning: true }, second.handler);

      await eventually('the next five were handled', () => [5, 6, 7, 8, 9].every((n) => second.numbers().includes(n)), PATIENTLY);
      expect(second.numbers().filter((n) => n < 5)).toEqual([]);
    }, TEST_TIMEOUT_MS);

    it('given messages published before a group existed, when it subscribes, then fromBeginning decides whether it sees them', async () => {
      const topic = uniqueName('start');
      await publishNumbers(topic, 0, 3, (n) => `k${n}`);
      const early = recorder();
      const late = recorder();
      await subscribe({ groupId: uniqueName('from-start'), topics: [topic], fromBeginning: true }, early.handler);
      // fromBeginning omitted: the default is to start at the end
      await subscribe({ groupId: uniqueName('from-end'), topics: [topic] }, late.handler);
      await publishNumbers(topic, 3, 4, (n) => `k${n}`);

      await eventually('the early group saw all four', () => new Set(early.numbers()).size === 4, PATIENTLY);
      await eventually('the late group saw the new one', () => late.numbers().includes(3), PATIENTLY);
      expect([...new Set(early.numbers())].sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
      expect(late.numbers()).toEqual([3]);
    }, TEST_TIMEOUT_MS);
  });
}
