/**
 * Builds the configured adapters of the three ports. The one place that maps
 * EVENT_STORE / READ_STORE / BUS to classes, shared by the app and the CLIs.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../config/config';
import { InProcessBus } from './bus/in-process/in-process-bus';
import type { MessageBus } from './bus/message-bus.port';
import type { EventStore } from './event-store/event-store.port';
import { SqliteEventStore } from './event-store/sqlite/sqlite-event-store';
import type { UpcasterRegistry } from './eventsourcing/upcasters';
import { UpcastingEventStore } from './eventsourcing/upcasting-event-store';
import { EmbeddedReadStore } from './read-store/embedded/embedded-read-store';
import type { ReadStore } from './read-store/read-store.port';

const IN_PROCESS_BUS_RETENTION = 100_000;

function dataFile(config: AppConfig, name: string): string {
  mkdirSync(config.dataDir, { recursive: true });
  return join(config.dataDir, name);
}

/** The event store, with reads passed through the upcasters. */
export function createEventStore(config: AppConfig, upcasters: UpcasterRegistry): EventStore {
  switch (config.eventStore) {
    case 'sqlite':
      return new UpcastingEventStore(new SqliteEventStore({ file: dataFile(config, 'events.db') }), upcasters);
  }
}

export function createReadStore(config: AppConfig): ReadStore {
  switch (config.readStore) {
    case 'embedded':
      return new EmbeddedReadStore({ file: dataFile(config, 'read-models.db') });
  }
}

export function createMessageBus(config: AppConfig): MessageBus {
  switch (config.bus) {
    case 'in-process':
      // Bounded memory: a partition keeps at most this many unconsumed messages.
      return new InProcessBus({ retention: IN_PROCESS_BUS_RETENTION });
  }
}
