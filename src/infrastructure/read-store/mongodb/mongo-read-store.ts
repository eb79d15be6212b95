import { MongoClient } from 'mongodb';
import type { Db, MongoClientOptions } from 'mongodb';
import { Collection, Doc, QueuedWrite, ReadStore } from '../read-store.port';
import { commitWrites } from './mongo-commit';
import { MongoCollection } from './mongo-collection';
import { isNamespaceNotFound } from './mongo-errors';

export interface MongoReadStoreOptions {
  /** mongodb:// or mongodb+srv:// connection string */
  url: string;
  /** database holding the read models and their checkpoints */
  database: string;
  /** driver options overriding the defaults below */
  clientOptions?: MongoClientOptions;
}

/**
 * Driver defaults. No sessions or transactions are ever started (DESIGN.md
 * section 2): every write is a single-document or bulk write, acknowledged by
 * the server (the default write concern), so flush() has nothing to do.
 * retryWrites stays at the driver default: against a standalone server (and
 * mongo-java-server, which advertises no logical sessions) the driver never
 * retries, against a replica set a retried single-document write is safe.
 */
const DEFAULT_CLIENT_OPTIONS: MongoClientOptions = {
  appName: 'agent-platform-read-store',
  maxPoolSize: 20,
  minPoolSize: 0,
  serverSelectionTimeoutMS: 10_000,
  connectTimeoutMS: 10_000,
};

/** Collection of the projections' checkpoints: `{ _id: name, position }`. */
export const CHECKPOINTS_COLLECTION = '_checkpoints';
const LOAD_CHUNK = 1000;

interface CheckpointDocument {
  _id: string;
  position: number;
}

/**
 * The read store on MongoDB (or any server speaking its wire protocol, such
 * as mongo-java-server in the tests). Read models are written in MongoDB's
 * query and update language, which this adapter passes through.
 */
export class MongoReadStore implements ReadStore {
  private closed = false;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

  /** Connects and pings the server; rejects (with the client closed) when it cannot be reached. */
  static async connect(options: MongoReadStoreOptions): Promise<MongoReadStore> {
    if (!options.database) throw new TypeError('MongoReadStore needs a database name');
    const client = new MongoClient(options.url, { ...DEFAULT_CLIENT_OPTIONS, ...options.clientOptions });
    try {
      await client.connect();
      const db = client.db(options.database);
      await db.command({ ping: 1 });
      return new MongoReadStore(client, db);
    } catch (error) {
      await client.close().catch(() => undefined);
      // the connection string may hold credentials: it is not repeated here
      throw new Error(`MongoReadStore could not reach MongoDB (database ${options.database}): ${errorMessage(error)}`, {
        cause: error,
      });
    }
  }

  /** The database name (for diagnostics). */
  get databaseName(): string {
    return this.db.databaseName;
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    this.assertOpen();
    return new MongoCollection<T>(name, this.db.collection(name), () => this.assertOpen());
  }

  async dropCollection(name: string): Promise<void> {
    this.assertOpen();
    try {
      await this.db.dropCollection(name);
    } catch (error) {
      if (!isNamespaceNotFound(error)) throw error;
    }
  }

  async getCheckpoint(name: string): Promise<number | null> {
    this.assertOpen();
    const found = await this.checkpoints().findOne({ _id: name });
    return typeof found?.position === 'number' ? found.position : null;
  }

  async setCheckpoint(name: string, position: number): Promise<void> {
    this.assertOpen();
    if (!Number.isFinite(position)) throw new TypeError(`checkpoint position must be a finite number (got ${position})`);
    await this.checkpoints().updateOne({ _id: name }, { $set: { position } }, { upsert: true });
  }

  /** insertMany in chunks of 1,000, unordered (the collection was just dropped). */
  async load(collection: string, documents: readonly Doc[]): Promise<void> {
    this.assertOpen();
    const target = this.collection(collection);
    for (let i = 0; i < documents.length; i += LOAD_CHUNK) {
      await target.bulkWrite(
        documents.slice(i, i + LOAD_CHUNK).map((document) => ({ insertOne: { document } })),
        { ordered: false },
      );
    }
  }

  async getCheckpoints(names: readonly string[]): Promise<Map<string, number>> {
    this.assertOpen();
    const found = await this.checkpoints()
      .find({ _id: { $in: [...names] } })
      .toArray();
    return new Map(found.filter((c) => typeof c.position === 'number').map((c) => [c._id, c.position]));
  }

  /** See mongo-commit.ts: a few round trips per page, then the checkpoints in one bulkWrite. */
  async commit(writes: readonly QueuedWrite[], checkpoints: ReadonlyMap<string, number>): Promise<void> {
    this.assertOpen();
    await commitWrites(this.db, writes);
    if (checkpoints.size === 0) return;
    for (const position of checkpoints.values()) {
      if (!Number.isFinite(position)) throw new TypeError(`checkpoint position must be a finite number (got ${position})`);
    }
    await this.checkpoints().bulkWrite(
      [...checkpoints].map(([name, position]) => ({ updateOne: { filter: { _id: name }, update: { $set: { position } }, upsert: true } })),
      { ordered: false },
    );
  }

  async deleteCheckpoint(name: string): Promise<void> {
    this.assertOpen();
    await this.checkpoints().deleteOne({ _id: name });
  }

  /** Every write was acknowledged by the server when its promise resolved. */
  async flush(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }

  private checkpoints() {
    return this.db.collection<CheckpointDocument>(CHECKPOINTS_COLLECTION);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('MongoReadStore is closed');
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
