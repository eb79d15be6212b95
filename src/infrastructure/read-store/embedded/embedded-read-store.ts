import { Collection, Doc, DuplicateKeyError, QueuedWrite, ReadStore } from '../read-store.port';
import { CollectionObserver, EmbeddedCollection } from './embedded-collection';
import { ReadStoreChanges, SqliteReadStoreFile } from './sqlite-read-store-file';

export interface EmbeddedReadStoreOptions {
  /** SQLite file to persist to; null keeps everything in memory only */
  file: string | null;
  /**
   * how long writes are gathered before they are flushed in one transaction;
   * under a steady stream of writes (a rebuild, a catch-up) the pause grows
   * so that writing to the file takes at most a tenth of the time
   */
  flushIntervalMs?: number;
}

/**
 * The read store without a server: documents live in memory and are queried
 * with mingo in MongoDB's language; with a file, they are written behind to
 * SQLite in batches.
 *
 * The constructor loads the whole file synchronously (better-sqlite3 is
 * synchronous), so the store is usable as soon as it is constructed.
 *
 * Write-behind: a write only marks its document dirty and schedules a flush
 * flushIntervalMs later; the flush writes every dirty document, deletion,
 * dropped collection, index list and checkpoint in ONE transaction. flush()
 * forces it, close() flushes and closes the file.
 */
export class EmbeddedReadStore implements ReadStore {
  private readonly file: SqliteReadStoreFile | null;
  private readonly flushIntervalMs: number;
  private readonly collections = new Map<string, EmbeddedCollection>();
  private readonly checkpoints = new Map<string, number>();
  private closed = false;

  // what the next flush has to write
  private readonly dirtyDocuments = new Map<string, Set<string>>();
  private readonly dirtyIndexes = new Set<string>();
  private readonly droppedCollections = new Set<string>();
  private readonly dirtyCheckpoints = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;
  private flushCount = 0;
  /** how long the last flush took: the next one waits at least ten times that */
  private lastFlushMs = 0;

  private readonly observer: CollectionObserver = {
    assertOpen: () => this.assertOpen(),
    documentChanged: (collection, id) => {
      if (!this.file) return;
      let ids = this.dirtyDocuments.get(collection);
      if (!ids) this.dirtyDocuments.set(collection, (ids = new Set()));
      ids.add(id);
      this.scheduleFlush();
    },
    indexesChanged: (collection) => {
      if (!this.file) return;
      this.dirtyIndexes.add(collection);
      this.scheduleFlush();
    },
  };

  constructor(options: EmbeddedReadStoreOptions) {
    this.flushIntervalMs = options.flushIntervalMs ?? 50;
    this.file = options.file === null ? null : new SqliteReadStoreFile(options.file);
    if (this.file) this.loadFromFile(this.file);
  }

  /** Number of transactions written so far (for tests and diagnostics). */
  get flushes(): number {
    return this.flushCount;
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    this.assertOpen();
    return this.collectionState(name) as unknown as Collection<T>;
  }

  async dropCollection(name: string): Promise<void> {
    this.assertOpen();
    // The handle stays valid (callers may hold it): it is emptied, not replaced.
    this.collections.get(name)?.clear();
    if (!this.file) return;
    this.droppedCollections.add(name);
    this.dirtyDocuments.delete(name);
    this.dirtyIndexes.delete(name);
    this.scheduleFlush();
  }

  async getCheckpoint(name: string): Promise<number | null> {
    this.assertOpen();
    return this.checkpoints.get(name) ?? null;
  }

  async load(collection: string, documents: readonly Doc[]): Promise<void> {
    this.assertOpen();
    const state = this.collectionState(collection);
    for (const doc of documents) state.applyQueued({ insertOne: { document: doc } });
  }

  /** The stored documents of a collection, not copies: read them, never change them (the engine's rebuild hands them to load). */
  documents(collection: string): readonly Doc[] {
    this.assertOpen();
    return this.collections.get(collection)?.storedDocuments() ?? [];
  }

  async getCheckpoints(names: readonly string[]): Promise<Map<string, number>> {
    this.assertOpen();
    const found = new Map<string, number>();
    for (const name of names) {
      const position = this.checkpoints.get(name);
      if (position !== undefined) found.set(name, position);
    }
    return found;
  }

  /**
   * Runs the writes one after the other in memory (each document sees its
   * writes in order, and so does everything else), then sets the checkpoints;
   * all of it goes to the file in the next write-behind transaction.
   */
  async commit(writes: readonly QueuedWrite[], checkpoints: ReadonlyMap<string, number>): Promise<void> {
    this.assertOpen();
    let failure: unknown = null;
    for (const write of writes) {
      try {
        this.collectionState(write.collection).applyQueued(write.operation);
      } catch (error) {
        const applied = write.duplicateIdMeansApplied && error instanceof DuplicateKeyError && '_id' in error.key;
        if (!applied) failure ??= error;
      }
    }
    if (failure) throw failure;
    for (const [name, position] of checkpoints) {
      if (!Number.isFinite(position)) throw new TypeError(`checkpoint position must be a finite number (got ${position})`);
      this.checkpoints.set(name, position);
      this.checkpointChanged(name);
    }
  }

  async setCheckpoint(name: string, position: number): Promise<void> {
    this.assertOpen();
    if (!Number.isFinite(position)) throw new TypeError(`checkpoint position must be a finite number (got ${position})`);
    this.checkpoints.set(name, position);
    this.checkpointChanged(name);
  }

  async deleteCheckpoint(name: string): Promise<void> {
    this.assertOpen();
    this.checkpoints.delete(name);
    this.checkpointChanged(name);
  }

  async flush(): Promise<void> {
    this.assertOpen();
    this.flushNow();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      this.flushNow();
    } finally {
      // even if the last flush failed: read models can be rebuilt, a leaked handle cannot be reused
      this.closed = true;
      this.file?.close();
    }
  }

  private collectionState(name: string): EmbeddedCollection {
    let collection = this.collections.get(name);
    if (!collection) this.collections.set(name, (collection = new EmbeddedCollection(name, this.observer)));
    return collection;
  }

  private loadFromFile(file: SqliteReadStoreFile): void {
    const snapshot = file.load();
    for (const { collection, doc } of snapshot.documents) this.collectionState(collection).load(doc);
    // after the documents, so each index is built over all of them
    for (const { collection, spec } of snapshot.indexes) this.collectionState(collection).loadIndex(spec);
    for (const { name, position } of snapshot.checkpoints) this.checkpoints.set(name, position);
  }

  private checkpointChanged(name: string): void {
    if (!this.file) return;
    this.dirtyCheckpoints.add(name);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      try {
        this.flushNow();
      } catch {
        // the changes stay dirty: try again later; flush()/close() throw if it keeps failing
        this.scheduleFlush();
      }
    }, Math.max(this.flushIntervalMs, this.lastFlushMs * 10));
    // a pending write-behind must not keep the process alive; close() flushes
    this.flushTimer.unref();
  }

  private flushNow(): void {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    if (!this.file || !this.hasChanges()) return;
    // better-sqlite3 is synchronous: nothing can change between collecting and committing
    const started = performance.now();
    this.file.write(this.collectChanges());
    this.lastFlushMs = performance.now() - started;
    this.dirtyDocuments.clear();
    this.dirtyIndexes.clear();
    this.droppedCollections.clear();
    this.dirtyCheckpoints.clear();
    this.flushCount++;
  }

  private hasChanges(): boolean {
    return (
      this.dirtyDocuments.size > 0 || this.dirtyIndexes.size > 0 || this.droppedCollections.size > 0 || this.dirtyCheckpoints.size > 0
    );
  }

  private collectChanges(): ReadStoreChanges {
    const documents: ReadStoreChanges['documents'] = [];
    for (const [collection, ids] of this.dirtyDocuments) {
      const state = this.collectionState(collection);
      for (const id of ids) {
        const doc = state.stored(id);
        documents.push({ collection, id, json: doc ? JSON.stringify(doc) : null });
      }
    }
    return {
      droppedCollections: [...this.droppedCollections],
      documents,
      indexes: [...this.dirtyIndexes].map((collection) => ({ collection, specs: this.collectionState(collection).indexSpecs() })),
      checkpoints: [...this.dirtyCheckpoints].map((name) => ({ name, position: this.checkpoints.get(name) ?? null })),
    };
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('EmbeddedReadStore is closed');
  }
}
