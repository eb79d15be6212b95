/**
 * Kafka goes down while the service is on BUS=kafka: HTTP keeps answering
 * (the bus is never on a request's path), and the integration events of what
 * was written meanwhile reach Kafka after the broker is back (the event store
 * is the outbox). Uses a broker of its own, so the shared one stays up.
 */
import { Kafka, logLevel } from 'kafkajs';
import { adapterMode } from '../support/adapters';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { eventually } from '../support/eventually';
import { startKafkaServer, type KafkaServer } from '../support/services/kafka-server';
import { describeWithService, serviceEndpoint } from '../support/services/registry';

jest.setTimeout(240_000);

// One run is enough: this suite sets its own adapters.
const describeOnce: typeof describeWithService =
  adapterMode() === 'embedded' ? describeWithService : (_name, title, body) => describe.skip(title, body);

describeOnce('kafka', 'broker outage', () => {
  let broker: KafkaServer;
  let t: TestApp;
  beforeAll(async () => {
    broker = await startKafkaServer();
    t = await startTestApp({
      BUS: 'kafka',
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_PREFIX: 'outage.events',
      ...(serviceEndpoint('mongo')
        ? { READ_STORE: 'mongodb', MONGO_URL: serviceEndpoint('mongo')!, MONGO_DATABASE: `outage_${Date.now()}` }
        : {}),
    });
  });
  afterAll(async () => {
    await t?.close();
    await broker?.stop();
  });

  const register = (username: string) =>
    t.request('POST', '/api/social/register', {
      body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
    });

  it('given the broker is killed, when clients keep writing, then HTTP answers and every event arrives after the restart', async () => {
    const before = uniqueName('before');
    expect((await register(before)).status).toBe(201);

    await broker.kill();
    const during = [uniqueName('during'), uniqueName('during')];
    for (const username of during) {
      const res = await register(username);
      expect(res.status).toBe(201);
      expect((await t.request('POST', '/api/social/login', { body: { username, password: 'correct horse battery' } })).status).toBe(200);
    }
    expect((await t.request('GET', '/health')).status).toBe(200);

    await broker.restart();
    const seen = new Set<string>();
    const kafka = new Kafka({ brokers: [broker.brokers], clientId: 'outage-test', logLevel: logLevel.NOTHING });
    // The relay creates the topic when it first gets through; wait for that.
    const admin = kafka.admin();
    await admin.connect();
    await eventually('the relay to create outage.events.user', async () => (await admin.listTopics()).includes('outage.events.user'), { timeoutMs: 120_000 });
    await admin.disconnect();
    const consumer = kafka.consumer({ groupId: `outage-${Date.now()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: 'outage.events.user', fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const value = JSON.parse(String(message.value)) as { type: string; data: { username?: string } };
        if (value.type === 'UserRegistered' && value.data.username) seen.add(value.data.username);
      },
    });
    try {
      await eventually('every registration on the topic', () => [before, ...during].every((u) => seen.has(u)), { timeoutMs: 120_000 });
    } finally {
      await consumer.disconnect();
    }
  });
});
