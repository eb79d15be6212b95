/**
 * The Kafka bus across a broker crash. This suite kills its broker, so it
 * starts one of its own (the shared broker of the run stays untouched); it
 * runs wherever the shared one could start.
 */
import { KafkaBus } from '../../src/infrastructure/bus/kafka/kafka-bus';
import type { BusMessage } from '../../src/infrastructure/bus/message-bus.port';
import { eventually } from '../support/eventually';
import { startKafkaServer, type KafkaServer } from '../support/services/kafka-server';
import { describeWithService } from '../support/services/registry';

const DEADLINE_MS = 90_000;
const WAIT = { timeoutMs: DEADLINE_MS, intervalMs: 50 };
/** how long the probe of the outage keeps trying before it gives up */
const PROBE_MS = 1000;

const numbered = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ({ key: `key-${(from + i) % 4}`, value: { n: from + i } }));
const n = (message: BusMessage) => (message.value as { n: number }).n;

describeWithService('kafka', 'KafkaBus across a broker crash', () => {
  let server: KafkaServer;
  const buses: KafkaBus[] = [];
  const newBus = (publishTimeoutMs = DEADLINE_MS) => {
    const bus = new KafkaBus({
      brokers: [server.brokers],
      clientId: 'kafka-recovery',
      publishTimeoutMs,
      retryDelayMs: 100,
      onHandlerError: () => undefined,
      onError: () => undefined, // crashes while the broker is down are expected
    });
    buses.push(bus);
    return bus;
  };

  beforeAll(async () => {
    server = await startKafkaServer();
  }, 150_000);

  afterEach(async () => {
    await Promise.allSettled(buses.splice(0).map((bus) => bus.close()));
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  }, 60_000);

  it('given a subscriber, when the broker is killed and restarted, then what was published during the outage arrives, in order per key', async () => {
    const bus = newBus();
    const topic = 'recovery-orders';
    const received: BusMessage[] = [];
    await bus.subscribe({ groupId: 'recovery-group', topics: [topic], fromBeginning: true }, async (message) => {
      received.push(message);
    });
    const numbers = () => new Set(received.map(n));

    await bus.publish(topic, numbered(0, 10));
    await eventually('the first ten arrived', () => numbers().size === 10, WAIT);

    await server.kill();
    let settled = false;
    const duringOutage = bus.publish(topic, numbered(10, 20)).finally(() => (settled = true));
    // a probe that gives up after PROBE_MS shows the broker was unreachable all that
    // time; the publish, which keeps trying for DEADLINE_MS, must still be pending
    await expect(newBus(PROBE_MS).publish('recovery-probe', numbered(0, 1))).rejects.toThrow(`failed for ${PROBE_MS} ms, giving up`);
    expect(settled).toBe(false);

    await server.restart();
    await duringOutage; // retried until the broker was back
    await bus.publish(topic, numbered(20, 30));

    await eventually('all thirty arrived', () => numbers().size === 30, WAIT);
    expect([...numbers()].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    // at-least-once: a redelivery may repeat, but the first delivery of each key keeps publish order
    for (let key = 0; key < 4; key++) {
      const firsts = [...new Set(received.filter((m) => m.key === `key-${key}`).map(n))];
      expect({ key, firsts }).toEqual({ key, firsts: [...firsts].sort((a, b) => a - b) });
    }
  }, 240_000);

  it('given a broker that was down, when a new bus subscribes and publishes after the restart, then it works as before', async () => {
    // the previous test restarted the broker; make sure a fresh client after a crash is fine too
    await server.kill();
    await server.restart();
    const bus = newBus();
    const topic = 'recovery-fresh';
    const received: number[] = [];
    await bus.subscribe({ groupId: 'recovery-fresh-group', topics: [topic], fromBeginning: true }, async (message) => {
      received.push(n(message));
    });
    await bus.publish(topic, numbered(0, 5));
    await eventually('five arrived', () => new Set(received).size === 5, WAIT);
  }, 240_000);
});
