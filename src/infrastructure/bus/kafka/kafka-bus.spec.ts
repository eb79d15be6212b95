/**
 * The Kafka adapter's pure parts, without a broker. Its behaviour against a
 * real broker is the shared contract (test/contract/message-bus.kafka.spec.ts)
 * plus a broker crash (test/contract/message-bus.kafka-recovery.spec.ts);
 * its offset commits, which the port leaves to the adapter, are at the end.
 */
import {
  Kafka,
  KafkaJSConnectionError,
  KafkaJSError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
  logLevel,
  type KafkaMessage,
} from 'kafkajs';
import { KafkaBus } from './kafka-bus';
import { eventually } from '../../../../test/support/eventually';
import {
  assertTopicName,
  BatchDecoder,
  decodeHeaders,
  decodeMessage,
  encodeHeaders,
  encodeMessages,
  isRetriableKafkaError,
  nextOffset,
  toKafkaLogLevel,
} from './kafka-mapping';

function kafkaMessage(overrides: Partial<KafkaMessage> = {}): KafkaMessage {
  return {
    key: Buffer.from('agent-1'),
    value: Buffer.from(JSON.stringify({ type: 'AgentCreated', data: { tags: ['x'] } })),
    timestamp: String(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
    attributes: 0,
    offset: '41',
    headers: { 'correlation-id': Buffer.from('c-1') },
    ...overrides,
  } as KafkaMessage;
}

describe('Kafka mapping', () => {
  describe('outgoing messages', () => {
    it('given values, keys and headers, when encoded, then values are JSON text, keys strings and headers copied', () => {
      const headers = { 'correlation-id': 'c-1' };
      const [message] = encodeMessages([{ key: 'agent-1', value: { n: 1, list: [1] }, headers }]);
      headers['correlation-id'] = 'changed';
      expect(message).toEqual({ key: 'agent-1', value: '{"n":1,"list":[1]}', headers: { 'correlation-id': 'c-1' } });
    });

    it('given an undefined value or no headers, when encoded, then the value travels as null and headers are empty', () => {
      expect(encodeMessages([{ key: 'k', value: undefined }])).toEqual([{ key: 'k', value: 'null', headers: {} }]);
    });

    it('given one value that cannot be serialised, when a batch is encoded, then the whole batch fails', () => {
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      expect(() => encodeMessages([{ key: 'a', value: 1 }, { key: 'b', value: circular }])).toThrow(TypeError);
      expect(() => encodeMessages([{ key: 'a', value: 10n }])).toThrow(TypeError);
    });

    it('given a header that is not a string, when encoded, then it is rejected with its name', () => {
      expect(() => encodeHeaders({ attempt: 3 as unknown as string })).toThrow('header attempt must be a string');
    });
  });

  describe('consumed messages', () => {
    it('given a kafkajs message, when decoded, then it becomes a BusMessage', () => {
      expect(decodeMessage('agents', 2, kafkaMessage())).toEqual({
        topic: 'agents',
        partition: 2,
        offset: 41,
        key: 'agent-1',
        value: { type: 'AgentCreated', data: { tags: ['x'] } },
        headers: { 'correlation-id': 'c-1' },
        timestamp: '2026-01-02T03:04:05.678Z',
      });
    });

    it('given messages of one batch with alternating timestamps, when decoded, then each gets its own time', () => {
      const decoder = new BatchDecoder('t', 0);
      const at = (millis: number) => decoder.decode(kafkaMessage({ timestamp: String(millis) })).timestamp;
      expect([at(0), at(1000), at(1000), at(0)]).toEqual([
        '1970-01-01T00:00:00.000Z',
        '1970-01-01T00:00:01.000Z',
        '1970-01-01T00:00:01.000Z',
        '1970-01-01T00:00:00.000Z',
      ]);
      const before = Date.now();
      expect(Date.parse(decodeMessage('t', 0, kafkaMessage({ timestamp: '-1' })).timestamp)).toBeGreaterThanOrEqual(before);
    });

    it('given a null key and value (a tombstone), when decoded, then the key is empty and the value null', () => {
      const message = decodeMessage('t', 0, kafkaMessage({ key: null, value: null }));
      expect(message.key).toBe('');
      expect(message.value).toBeNull();
    });

    it('given a value that is not JSON (written by another client), when decoded, then the raw text is handed over', () => {
      expect(decodeMessage('t', 0, kafkaMessage({ value: Buffer.from('plain text') })).value).toBe('plain text');
    });

    it('given headers as buffers, strings, repeated names and undefined, when decoded, then each is one string', () => {
      expect(
        decodeHeaders({
          a: Buffer.from('from-buffer'),
          b: 'from-string',
          c: [Buffer.from('first'), Buffer.from('last')],
          d: undefined,
        }),
      ).toEqual({ a: 'from-buffer', b: 'from-string', c: 'last' });
      expect(decodeHeaders(undefined)).toEqual({});
    });

    it('given an offset, when the next one is computed, then it is exact beyond 2^53', () => {
      expect(nextOffset('0')).toBe('1');
      expect(nextOffset('9007199254740993')).toBe('9007199254740994');
    });
  });

  describe('topic names', () => {
    it.each(['agents', 'match.events_v2', 'delivery-abc123-1', 'a'.repeat(249)])('accepts %s', (topic) => {
      expect(() => assertTopicName(topic)).not.toThrow();
    });

    it.each(['', '.', '..', 'with space', 'slash/topic', 'ümlaut', 'a'.repeat(250)])('rejects %j', (topic) => {
      expect(() => assertTopicName(topic)).toThrow(/invalid topic name/);
    });
  });

  describe('retriable errors', () => {
    it('given network and availability errors, also after kafkajs gave up retrying, then they are retriable', () => {
      const refused = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092');
      expect(isRetriableKafkaError(refused)).toBe(true);
      expect(isRetriableKafkaError(new KafkaJSNumberOfRetriesExceeded(refused, { retryCount: 5, retryTime: 2000 }))).toBe(true);
      expect(isRetriableKafkaError(new KafkaJSError('Not leader for partition', { retriable: true }))).toBe(true);
    });

    it('given protocol errors Kafka marks final, or errors that are not kafkajs errors, then they are not retriable', () => {
      const tooLarge = new KafkaJSProtocolError({ message: 'The request included a message larger than the max message size', type: 'MESSAGE_TOO_LARGE', code: 10, retriable: false } as unknown as Error);
      expect(isRetriableKafkaError(tooLarge)).toBe(false);
      expect(isRetriableKafkaError(new KafkaJSNonRetriableError(tooLarge))).toBe(false);
      expect(isRetriableKafkaError(new TypeError('Do not know how to serialize a BigInt'))).toBe(false);
      expect(isRetriableKafkaError('a string')).toBe(false);
      expect(isRetriableKafkaError(undefined)).toBe(false);
    });
  });

  it('given a log level, when mapped, then kafkajs stays silent unless asked', () => {
    expect(toKafkaLogLevel(undefined)).toBe(logLevel.NOTHING);
    expect(toKafkaLogLevel('error')).toBe(logLevel.ERROR);
    expect(toKafkaLogLevel('debug')).toBe(logLevel.DEBUG);
  });
});

describe('KafkaBus without a broker', () => {
  // nothing listens on port 1: any attempt to reach it would fail the tests below by timing out
  const options = { brokers: ['127.0.0.1:1'], publishTimeoutMs: 1000, subscribeTimeoutMs: 1000 };

  it('given bad options, when constructed, then it refuses', () => {
    expect(() => new KafkaBus({ brokers: [] })).toThrow('at least one broker');
    expect(() => new KafkaBus({ ...options, partitions: 0 })).toThrow(RangeError);
    expect(() => new KafkaBus({ ...options, replicationFactor: 1.5 })).toThrow(RangeError);
    expect(() => new KafkaBus({ ...options, commitThreshold: 0 })).toThrow('commitThreshold must be a positive integer');
    expect(() => new KafkaBus({ ...options, commitIntervalMs: -1 })).toThrow('commitIntervalMs must be a positive integer');
  });

  it('given an invalid topic or value, when published, then it fails before any network traffic', async () => {
    const bus = new KafkaBus(options);
    await expect(bus.publish('no spaces', [{ key: 'k', value: 1 }])).rejects.toThrow(/invalid topic name/);
    await expect(bus.publish('t', [{ key: 'k', value: 1n }])).rejects.toThrow(TypeError);
    await expect(bus.publish('t', [{ key: 'k', value: 1, headers: { n: 1 as unknown as string } }])).rejects.toThrow(
      'header n must be a string',
    );
    await expect(bus.publish('t', [])).resolves.toBeUndefined();
    await expect(bus.subscribe({ groupId: 'g', topics: [] }, async () => undefined)).rejects.toThrow('at least one topic');
    await bus.close();
  });

  it('given a closed bus, when used, then it says so', async () => {
    const bus = new KafkaBus(options);
    await bus.close();
    await bus.close(); // twice is fine
    await expect(bus.publish('t', [{ key: 'k', value: 1 }])).rejects.toThrow('KafkaBus is closed');
    await expect(bus.subscribe({ groupId: 'g', topics: ['t'] }, async () => undefined)).rejects.toThrow('KafkaBus is closed');
  });

  it('given no reachable broker, when publishing, then it retries until its deadline and then fails with the cause', async () => {
    const bus = new KafkaBus(options);
    const started = Date.now();
    await expect(bus.publish('t', [{ key: 'k', value: 1 }])).rejects.toThrow(/publish to t failed for 1000 ms, giving up/);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(6000); // the attempt under way is abandoned at the deadline, not waited for
    await bus.close();
  }, 30_000);
});

/**
 * Offset commits against the run's shared broker (jest global setup, when
 * TEST_SERVICES includes kafka): handled offsets are committed in batches,
 * never ahead of the handler, and all of them by the time stop() resolves.
 * One partition per topic, so "committed offset" is "messages handled".
 */
const brokers = process.env.TEST_KAFKA_BROKERS;
(brokers ? describe : describe.skip)('KafkaBus offset commits (real broker)', () => {
  const runId = Math.random().toString(36).slice(2, 8);
  let counter = 0;
  const unique = (label: string) => `${label}-${runId}-${++counter}`;
  const admin = new Kafka({ brokers: brokers ? brokers.split(',') : [], logLevel: logLevel.NOTHING }).admin();
  let bus: KafkaBus;

  const committed = async (groupId: string, topic: string): Promise<number> => {
    const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return Number(offsets.partitions[0].offset); // -1 when nothing was committed
  };
  /** Every wait's bound: group joins and rebalances take seconds. */
  const PATIENTLY = { timeoutMs: 30_000, intervalMs: 20 };
  const gate = () => {
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  };
  const publish = (topic: string, count: number) =>
    bus.publish(topic, Array.from({ length: count }, (_, n) => ({ key: `k${n % 7}`, value: { n } })));
  const n = (message: { value: unknown }) => (message.value as { n: number }).n;

  beforeAll(() => admin.connect());
  afterAll(() => admin.disconnect());
  beforeEach(() => {
    bus = new KafkaBus({
      brokers: brokers!.split(','),
      clientId: 'kafka-bus-commits',
      partitions: 1,
      commitThreshold: 500,
      commitIntervalMs: 60_000, // only the threshold and the batch ends commit here
      retryDelayMs: 1500,
      onHandlerError: () => undefined,
    });
  });
  afterEach(() => bus.close());

  it('given a long batch, when it is being handled, then handled offsets are committed along the way and never ahead of the handler', async () => {
    const topic = unique('commit-threshold');
    const groupId = unique('g');
    await publish(topic, 2000);
    const blocked = gate();
    let reached = false;
    const handled: number[] = [];
    await bus.subscribe({ groupId, topics: [topic], fromBeginning: true }, async (message) => {
      if (n(message) === 1200) {
        reached = true;
        await blocked.opened;
      }
      handled.push(n(message));
    });
    try {
      await eventually('message 1200 is in its handler', () => reached, PATIENTLY);
      const offset = await committed(groupId, topic);
      // 0..1199 were handled; fewer than the threshold may await their commit
      expect(offset).toBeGreaterThan(1200 - 500);
      expect(offset).toBeLessThanOrEqual(1200);
    } finally {
      blocked.open(); // also when an expectation failed: close() waits for the handler
    }
    await eventually('all were handled', () => handled.length === 2000, PATIENTLY);
    await eventually('all were committed', async () => (await committed(groupId, topic)) === 2000, PATIENTLY);
    expect(handled).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  }, 60_000);

  it('given stop() while a batch is being handled, then it resolves once the handled offsets are committed, and the group resumes right after them', async () => {
    const topic = unique('commit-stop');
    const groupId = unique('g');
    await publish(topic, 2000);
    const blocked = gate();
    let reached = false;
    const first: number[] = [];
    const order: string[] = [];
    const subscription = await bus.subscribe({ groupId, topics: [topic], fromBeginning: true }, async (message) => {
      if (n(message) === 777) {
        reached = true;
        await blocked.opened;
        order.push('777 returned');
      }
      first.push(n(message));
    });
    try {
      await eventually('message 777 is in its handler', () => reached, PATIENTLY);
      const stopping = subscription.stop().then(() => order.push('stopped'));
      setTimeout(blocked.open, 200); // a slow handler: part of the given, it returns 200 ms after stop() was called
      await stopping;
    } finally {
      blocked.open();
    }
    expect(order).toEqual(['777 returned', 'stopped']); // the handler in flight is waited for
    expect(first).toEqual(Array.from({ length: 778 }, (_, i) => i)); // nothing after stop()
    expect(await committed(groupId, topic)).toBe(778); // every handled offset, at once

    const second: number[] = [];
    await bus.subscribe({ groupId, topics: [topic], fromBeginning: true }, async (message) => {
      second.push(n(message));
    });
    await eventually('the rest was handled', () => second.length >= 2000 - 778, PATIENTLY);
    expect(second).toEqual(Array.from({ length: 2000 - 778 }, (_, i) => 778 + i));
  }, 60_000);

  it('given a handler that throws deep inside a batch, then what came before is committed and the failed message comes again before the rest', async () => {
    const topic = unique('commit-retry');
    const groupId = unique('g');
    await publish(topic, 2000);
    const handled: number[] = [];
    let failures = 0;
    let failedAt = 0;
    await bus.subscribe({ groupId, topics: [topic], fromBeginning: true }, async (message) => {
      if (n(message) === 1234 && failures === 0) {
        failures++;
        failedAt = Date.now();
        throw new Error('transient');
      }
      handled.push(n(message));
    });
    await eventually('the failure happened', () => failures === 1, PATIENTLY);
    // during the retry pause (1.5 s): everything before the failed message is committed, nothing after
    await eventually('0..1233 were committed', async () => (await committed(groupId, topic)) === 1234, { timeoutMs: 1000, intervalMs: 20 });
    expect(Date.now() - failedAt).toBeLessThan(1500);
    expect(handled).toEqual(Array.from({ length: 1234 }, (_, i) => i));
    await eventually('all were handled', () => handled.length >= 2000, PATIENTLY);
    expect(handled).toEqual(Array.from({ length: 2000 }, (_, i) => i));
    await eventually('all were committed', async () => (await committed(groupId, topic)) === 2000, PATIENTLY);
  }, 60_000);
});
