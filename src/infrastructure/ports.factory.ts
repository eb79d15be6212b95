/**
 * Builds the configured adapters of the three ports. The one place that maps
 * EVENT_STORE / READ_STORE / BUS to classes, shared by the app, the worker and
 * the CLIs. The production adapters are loaded when configured, not before:
 * their client libraries (the EventStoreDB gRPC client, the MongoDB driver,
 * kafkajs: some 500 modules) stay out of a node on the embedded default, which
 * starts faster for it (and so does every test file that starts an app).
 * `require` at the point of use, typed by the module's own declarations (a
 * CommonJS build: `import()` would load it as an ES module).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../config/config';
import { InProcessBus } from './bus/in-process/in-process-bus';
import type { MessageBus } from './bus/message-bus.port';
import { SqliteEventStore } from './event-store/sqlite/sqlite-event-store';
import { EmbeddedReadStore } from './read-store/embedded/embedded-read-store';
import type { EventStore } from './event-store/event-store.port';
import type { UpcasterRegistry } from './eventsourcing/upcasters';
import { UpcastingEventStore } from './eventsourcing/upcasting-event-store';
import type { ReadStore } from './read-store/read-store.port';
import type { KeyStore } from './personal-data/key-store.port';
import { type PersonalDataCatalogue, ShreddingEventStore } from './personal-data/shredding-event-store';
import { SqliteKeyStore } from './personal-data/sqlite-key-store';

const IN_PROCESS_BUS_RETENTION = 100_000;

function dataFile(config: AppConfig, name: string): string {
  mkdirSync(config.dataDir, { recursive: true });
  return join(config.dataDir, name);
}

/** Told after each commit of the event store: appends acknowledged, events written (metrics). */
export type CommitObserver = (appends: number, events: number) => void;

/**
 * The event store, with reads passed through the upcasters. `personalData`
 * is explicit on purpose: with the catalogue of personal fields and the key
 * store, those fields are sealed on append and opened on read
 * (crypto-shredding, personal-data/) as the node does; `null` reads them
 * sealed, for tools that only read what was written (audit:verify) or logs
 * without personal data.
 */
export async function createEventStore(
  config: AppConfig,
  upcasters: UpcasterRegistry,
  personalData: { catalogue: PersonalDataCatalogue; keys: KeyStore } | null,
  onCommit?: CommitObserver,
): Promise<EventStore> {
  const raw = await createRawEventStore(config, onCommit);
  return new UpcastingEventStore(personalData ? new ShreddingEventStore(raw, personalData.keys, personalData.catalogue) : raw, upcasters);
}

/**
 * The data keys' store, apart from the log: `keys.db` under DATA_DIR on the
 * embedded default, a `data_keys` collection in the database
 * `<MONGO_DATABASE>_keys` when the read store is MongoDB.
 */
export async function createKeyStore(config: AppConfig): Promise<KeyStore> {
  switch (config.readStore) {
    case 'embedded':
      return new SqliteKeyStore({ file: dataFile(config, 'keys.db') });
    case 'mongodb': {
      const { MongoKeyStore } = require('./personal-data/mongo-key-store') as typeof import('./personal-data/mongo-key-store');
      return MongoKeyStore.connect({ url: config.mongo!.url, database: `${config.mongo!.database}_keys` });
    }
  }
}

async function createRawEventStore(config: AppConfig, onCommit: CommitObserver | undefined): Promise<EventStore> {
  switch (config.eventStore) {
    case 'sqlite':
      return new SqliteEventStore({ file: dataFile(config, 'events.db'), onCommit });
    case 'eventstoredb': {
      const { EventStoreDbEventStore } = require('./event-store/eventstoredb/eventstoredb-event-store') as typeof import('./event-store/eventstoredb/eventstoredb-event-store');
      const store = await EventStoreDbEventStore.connect(config.eventStoreDb!.connectionString);
      if (!onCommit) return store;
      // no group commit: every append is a commit of its own
      const append = store.append.bind(store);
      store.append = async (streamId, events, expected) => {
        const result = await append(streamId, events, expected);
        onCommit(1, events.length);
        return result;
      };
      return store;
    }
  }
}

export async function createReadStore(config: AppConfig): Promise<ReadStore> {
  switch (config.readStore) {
    case 'embedded':
      return new EmbeddedReadStore({ file: dataFile(config, 'read-models.db') });
    case 'mongodb': {
      const { MongoReadStore } = require('./read-store/mongodb/mongo-read-store') as typeof import('./read-store/mongodb/mongo-read-store');
      return MongoReadStore.connect({ url: config.mongo!.url, database: config.mongo!.database });
    }
  }
}

export async function createMessageBus(config: AppConfig): Promise<MessageBus> {
  switch (config.bus) {
    case 'in-process':
      // Bounded memory: a partition keeps at most this many unconsumed messages.
      return new InProcessBus({ retention: IN_PROCESS_BUS_RETENTION });
    case 'kafka': {
      const { KafkaBus } = require('./bus/kafka/kafka-bus') as typeof import('./bus/kafka/kafka-bus');
      const kafka = config.kafka!;
      return new KafkaBus({ brokers: kafka.brokers, clientId: kafka.clientId, partitions: kafka.partitions });
    }
  }
}
