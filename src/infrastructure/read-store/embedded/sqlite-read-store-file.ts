import Database from 'better-sqlite3';
import { Doc, IndexSpec } from '../read-store.port';

/** Everything that changed since the last flush, written in one transaction. */
export interface ReadStoreChanges {
  /** wiped first, so documents written after the drop survive it */
  droppedCollections: string[];
  /** json null = the document was deleted */
  documents: { collection: string; id: string; json: string | null }[];
  /** the complete current index list of each collection whose indexes changed */
  indexes: { collection: string; specs: IndexSpec[] }[];
  /** position null = the checkpoint was deleted */
  checkpoints: { name: string; position: number | null }[];
}

export interface ReadStoreSnapshot {
  documents: { collection: string; doc: Doc }[];
  indexes: { collection: string; spec: IndexSpec }[];
  checkpoints: { name: string; position: number }[];
}

/**
 * The SQLite file behind the embedded read store. Durability is relaxed on
 * purpose (WAL, synchronous=NORMAL): read models can always be rebuilt from
 * the event store, and a checkpoint is committed in the same transaction as
 * the documents it describes, so after a crash both are simply a bit older.
 */
export class SqliteReadStoreFile {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS documents (
        collection TEXT NOT NULL,
        id TEXT NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (collection, id)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS indexes (
        collection TEXT NOT NULL,
        name TEXT NOT NULL,
        spec TEXT NOT NULL,
        PRIMARY KEY (collection, name)
      );
      CREATE TABLE IF NOT EXISTS checkpoints (
        name TEXT PRIMARY KEY,
        position INTEGER NOT NULL
      );
    `);
    this.statements = {
      dropDocuments: this.db.prepare('DELETE FROM documents WHERE collection = ?'),
      dropIndexes: this.db.prepare('DELETE FROM indexes WHERE collection = ?'),
      upsertDocument: this.db.prepare(
        'INSERT INTO documents (collection, id, json) VALUES (?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET json = excluded.json',
      ),
      deleteDocument: this.db.prepare('DELETE FROM documents WHERE collection = ? AND id = ?'),
      insertIndex: this.db.prepare('INSERT INTO indexes (collection, name, spec) VALUES (?, ?, ?)'),
      upsertCheckpoint: this.db.prepare(
        'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
      ),
      deleteCheckpoint: this.db.prepare('DELETE FROM checkpoints WHERE name = ?'),
    };
  }

  load(): ReadStoreSnapshot {
    const documents = this.db
      .prepare('SELECT collection, json FROM documents')
      .all()
      .map((row) => {
        const { collection, json } = row as { collection: string; json: string };
        return { collection, doc: JSON.parse(json) as Doc };
      });
    const indexes = this.db
      .prepare('SELECT collection, spec FROM indexes')
      .all()
      .map((row) => {
        const { collection, spec } = row as { collection: string; spec: string };
        return { collection, spec: JSON.parse(spec) as IndexSpec };
      });
    const checkpoints = this.db.prepare('SELECT name, position FROM checkpoints').all() as ReadStoreSnapshot['checkpoints'];
    return { documents, indexes, checkpoints };
  }

  write(changes: ReadStoreChanges): void {
    const s = this.statements;
    this.db.transaction(() => {
      for (const collection of changes.droppedCollections) {
        s.dropDocuments.run(collection);
        s.dropIndexes.run(collection);
      }
      for (const { collection, id, json } of changes.documents) {
        if (json === null) s.deleteDocument.run(collection, id);
        else s.upsertDocument.run(collection, id, json);
      }
      for (const { collection, specs } of changes.indexes) {
        s.dropIndexes.run(collection);
        for (const spec of specs) s.insertIndex.run(collection, spec.name, JSON.stringify(spec));
      }
      for (const { name, position } of changes.checkpoints) {
        if (position === null) s.deleteCheckpoint.run(name);
        else s.upsertCheckpoint.run(name, position);
      }
    })();
  }

  close(): void {
    this.db.close();
  }
}
