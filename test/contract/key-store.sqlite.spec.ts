import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteKeyStore } from '../../src/infrastructure/personal-data/sqlite-key-store';
import { describeKeyStoreContract } from './key-store.contract';

describe('SQLite key store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keys-'));
  const file = join(dir, 'keys.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describeKeyStoreContract('sqlite', async () => {
    let store = new SqliteKeyStore({ file });
    return {
      store,
      reopen: async () => {
        await store.close();
        store = new SqliteKeyStore({ file });
        return store;
      },
      cleanup: () => store.close(),
    };
  });

  it('given an erased key, then its bytes are nowhere in the file (secure_delete)', async () => {
    const own = join(dir, 'shred.db');
    const store = new SqliteKeyStore({ file: own });
    const key = await store.current('someone', 'personal');
    await store.erase('someone', 'personal');
    await store.close();
    const bytes = Buffer.concat([readFileSync(own), ...['-wal'].map((suffix) => { try { return readFileSync(own + suffix); } catch { return Buffer.alloc(0); } })]);
    expect(bytes.includes(key.key)).toBe(false);
  });
});
