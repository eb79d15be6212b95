import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedReadStore } from '../../src/infrastructure/read-store/embedded/embedded-read-store';
import { ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { describeReadStoreContract } from './read-store.contract';

describeReadStoreContract('embedded, in memory', async () => {
  const store = new EmbeddedReadStore({ file: null });
  return { store, cleanup: () => store.close() };
});

describeReadStoreContract('embedded, SQLite file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'read-store-'));
  const file = join(dir, 'read-models.db');
  let store: ReadStore = new EmbeddedReadStore({ file });
  return {
    store,
    reopen: async () => {
      await store.close();
      store = new EmbeddedReadStore({ file });
      return store;
    },
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
