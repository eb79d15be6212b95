/**
 * A MongoDB database of its own for one test file, for the adapters' contract
 * suites: a random name, so parallel suites and earlier runs never meet, and
 * dropped after the file. Call it inside `describeWithService('mongo', …)`:
 * the server's address is read when a test runs.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { serviceEndpoint } from './services/registry';

export interface MongoConnection {
  url: string;
  database: string;
}

/** A store under test and the same store closed and opened again over the same database (the contracts' fixtures). */
export interface ReopenableStore<S> {
  store: S;
  reopen(): Promise<S>;
  cleanup(): Promise<void>;
}

export interface MongoDatabaseFixture {
  /** where to connect, at test time */
  connection(): MongoConnection;
  /** opens a store with `connect` on this database, reopenable */
  openStore<S extends { close(): Promise<void> }>(connect: (connection: MongoConnection) => Promise<S>): Promise<ReopenableStore<S>>;
}

export function mongoDatabaseFixture(prefix: string): MongoDatabaseFixture {
  const database = `${prefix}_${randomBytes(4).toString('hex')}`;
  const connection = (): MongoConnection => ({ url: serviceEndpoint('mongo')!, database });

  afterAll(async () => {
    const client = new MongoClient(connection().url);
    try {
      await client.db(database).dropDatabase();
    } finally {
      await client.close();
    }
  });

  return {
    connection,
    async openStore(connect) {
      let store = await connect(connection());
      return {
        store,
        reopen: async () => {
          await store.close();
          store = await connect(connection());
          return store;
        },
        cleanup: () => store.close(),
      };
    },
  };
}
