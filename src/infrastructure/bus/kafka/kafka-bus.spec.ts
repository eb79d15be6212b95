/**
 * The Kafka adapter's pure parts, without a broker. Its behaviour against a
 * real broker is the shared contract (test/contract/message-bus.kafka.spec.ts)
 * plus a broker crash (test/contract/message-bus.kafka-recovery.spec.ts).
 */
import {
  KafkaJSConnectionError,
  KafkaJSError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
  logLevel,
  type KafkaMessage,
} from 'kafkajs';
import { KafkaBus } from './kafka-bus';
import {
  assertTopicName,
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
