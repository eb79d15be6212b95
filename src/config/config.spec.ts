import { ConfigError, loadConfig } from './config';

describe('config', () => {
  it('given no environment, then the embedded default on port 6777 with data under ./data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 6777,
      eventStore: 'sqlite',
      readStore: 'embedded',
      bus: 'in-process',
      nodeTier: 'flat',
      readYourWritesTimeoutMs: 2000,
    });
    expect(config.dataDir).toMatch(/[/\\]data$/);
  });

  it.each([
    ['PORT', 'abc', /PORT: expected an integer, got 'abc'/],
    ['PORT', '70000', /PORT: expected 0\.\.65535, got 70000/],
    ['EVENT_STORE', 'postgres', /EVENT_STORE: expected one of sqlite/],
    ['SVC_NODE_TIER', 'global', /SVC_NODE_TIER: expected one of flat, regional, central/],
    ['JWT_SECRET', 'short', /JWT_SECRET: must be at least 32 characters/],
    ['BODY_LIMIT_BYTES', '-1', /BODY_LIMIT_BYTES/],
    ['NODE_ID', 'has spaces', /NODE_ID/],
  ])('given %s=%s, then start fails with a message naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('given SVC_ADMIN_USERS, then the names are trimmed and lower-cased', () => {
    expect(loadConfig({ SVC_ADMIN_USERS: ' Alice, bob ,,' }).adminUsernames).toEqual(['alice', 'bob']);
  });

  it.each([
    [{ READ_STORE: 'mongodb' }, /MONGO_URL: required when READ_STORE=mongodb/],
    [{ BUS: 'kafka' }, /KAFKA_BROKERS: required when BUS=kafka/],
    [{ EVENT_STORE: 'eventstoredb' }, /EVENTSTORE_CONNECTION_STRING: required when EVENT_STORE=eventstoredb/],
    [{ BUS: 'kafka', KAFKA_BROKERS: 'localhost' }, /KAFKA_BROKERS: expected host:port/],
    [{ READ_STORE: 'mongodb', MONGO_URL: 'http://x' }, /MONGO_URL: expected mongodb:\/\//],
    [{ PROJECTIONS: 'off' }, /PROJECTIONS: off needs a shared read store/],
    [{ INTEGRATION_EVENTS: 'maybe' }, /INTEGRATION_EVENTS: expected true or false/],
  ])('given %j, then start fails naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('given the production adapters, then their settings are typed and the relay is on by default', () => {
    const config = loadConfig({
      EVENT_STORE: 'eventstoredb',
      EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
      READ_STORE: 'mongodb',
      MONGO_URL: 'mongodb://localhost:27017',
      BUS: 'kafka',
      KAFKA_BROKERS: 'k1:9092, k2:9092',
      NODE_ID: 'node-a',
      PROJECTIONS: 'off',
    });
    expect(config.eventStoreDb).toEqual({ connectionString: 'esdb://localhost:2113?tls=false' });
    expect(config.mongo).toEqual({ url: 'mongodb://localhost:27017', database: 'svc' });
    expect(config.kafka).toEqual({ brokers: ['k1:9092', 'k2:9092'], clientId: 'node-a', partitions: 3, topicPrefix: 'svc.events' });
    expect(config.integrationEvents).toBe(true);
    expect(config.projections).toBe('off');
  });
});
