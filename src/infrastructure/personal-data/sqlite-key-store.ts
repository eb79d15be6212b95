/**
 * The embedded key store: a SQLite file of its own under DATA_DIR
 * (`keys.db`), apart from the event log, or in memory when no file is given.
 * `secure_delete` overwrites erased key material in the file instead of
 * leaving it in free pages; an erased version keeps its row (without the key)
 * so version numbers never repeat.
 */
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { DATA_KEY_BYTES, type DataKey, type KeyStore } from './key-store.port';

interface KeyRow {
  version: number;
  key: Buffer | null;
}

export class SqliteKeyStore implements KeyStore {
  private readonly db: Database.Database;

  constructor(options: { file: string | null }) {
    this.db = new Database(options.file ?? ':memory:');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('secure_delete = ON');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS data_keys (
         subject TEXT NOT NULL, purpose TEXT NOT NULL, version INTEGER NOT NULL,
         key BLOB, created_at TEXT NOT NULL, erased_at TEXT,
         PRIMARY KEY (subject, purpose, version)
       ) WITHOUT ROWID`,
    );
  }

  private newest(subject: string, purpose: string): KeyRow | undefined {
    return this.db.prepare('SELECT version, key FROM data_keys WHERE subject = ? AND purpose = ? ORDER BY version DESC LIMIT 1').get(subject, purpose) as KeyRow | undefined;
  }

  private readonly insertNext = (subject: string, purpose: string, afterLive: boolean): DataKey =>
    this.db.transaction((): DataKey => {
      const top = this.newest(subject, purpose);
      if (afterLive && top?.key) return { subject, purpose, version: top.version, key: top.key };
      const version = (top?.version ?? 0) + 1;
      const key = randomBytes(DATA_KEY_BYTES);
      this.db.prepare('INSERT INTO data_keys (subject, purpose, version, key, created_at) VALUES (?, ?, ?, ?, ?)').run(subject, purpose, version, key, new Date().toISOString());
      return { subject, purpose, version, key };
    }).immediate();

  async current(subject: string, purpose: string): Promise<DataKey> {
    const top = this.newest(subject, purpose);
    if (top?.key) return { subject, purpose, version: top.version, key: top.key };
    return this.insertNext(subject, purpose, true);
  }

  async get(subject: string, purpose: string, version: number): Promise<Buffer | null> {
    const row = this.db.prepare('SELECT key FROM data_keys WHERE subject = ? AND purpose = ? AND version = ?').get(subject, purpose, version) as { key: Buffer | null } | undefined;
    return row?.key ?? null;
  }

  async rotate(subject: string, purpose: string): Promise<DataKey> {
    return this.insertNext(subject, purpose, false);
  }

  async erase(subject: string, purpose: string): Promise<number> {
    return this.db.prepare('UPDATE data_keys SET key = NULL, erased_at = ? WHERE subject = ? AND purpose = ? AND key IS NOT NULL').run(new Date().toISOString(), subject, purpose).changes;
  }

  async import(keys: readonly DataKey[]): Promise<void> {
    const insert = this.db.prepare('INSERT OR IGNORE INTO data_keys (subject, purpose, version, key, created_at) VALUES (?, ?, ?, ?, ?)');
    const at = new Date().toISOString();
    this.db.transaction(() => {
      for (const k of keys) insert.run(k.subject, k.purpose, k.version, k.key, at);
    })();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
