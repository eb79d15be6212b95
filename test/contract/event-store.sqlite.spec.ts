import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { describeEventStoreContract } from './event-store.contract';

// A fresh file per test: the real WAL/fsync path, not ':memory:'.
describeEventStoreContract('SqliteEventStore', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'event-store-contract-'));
  const store = new SqliteEventStore({ file: join(dir, 'events.db'), pollIntervalMs: 50 });
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
