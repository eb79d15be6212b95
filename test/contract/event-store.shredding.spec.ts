/**
 * The crypto-shredding decorator is transparent: the event-store contract
 * passes through it unchanged (over SQLite; the contract's events carry no
 * personal fields, and a catalogue naming one of its types seals it: the
 * reads must still give the data back as appended).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { ShreddingEventStore } from '../../src/infrastructure/personal-data/shredding-event-store';
import { SqliteKeyStore } from '../../src/infrastructure/personal-data/sqlite-key-store';
import { describeEventStoreContract } from './event-store.contract';

describeEventStoreContract('ShreddingEventStore over SqliteEventStore', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'event-store-shredding-'));
  const store = new ShreddingEventStore(new SqliteEventStore({ file: join(dir, 'events.db'), pollIntervalMs: 50 }), new SqliteKeyStore({ file: null }), {
    fieldsOf: () => [],
    erasureOf: () => null,
  });
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
