/**
 * The production key store: a MongoDB collection (`data_keys`) in a database
 * of its own (`<read store database>_keys` unless configured), apart from
 * the event log and from the read models a rebuild drops. One document per
 * (subject, purpose, version); its `_id` makes concurrent creations of a
 * version collide, and the loser reads the winner's key. An erased version
 * keeps its document without the key, so versions never repeat.
 */
import { randomBytes } from 'node:crypto';
import { Binary, type Collection, MongoClient } from 'mongodb';
import { DATA_KEY_BYTES, type DataKey, type KeyStore } from './key-store.port';

interface KeyDoc {
  _id: string;
  subject: string;
  purpose: string;
  version: number;
  key: Binary | Buffer | null;
  created_at: string;
  erased_at: string | null;
}

const idOf = (subject: string, purpose: string, version: number) => `${purpose}:${version}:${subject}`;
const DUPLICATE_KEY = 11000;

export class MongoKeyStore implements KeyStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly keys: Collection<KeyDoc>,
  ) {}

  static async connect(options: { url: string; database: string }): Promise<MongoKeyStore> {
    const client = await MongoClient.connect(options.url);
    const keys = client.db(options.database).collection<KeyDoc>('data_keys');
    await keys.createIndex({ subject: 1, purpose: 1, version: -1 });
    return new MongoKeyStore(client, keys);
  }

  private async newest(subject: string, purpose: string): Promise<KeyDoc | null> {
    return this.keys.findOne({ subject, purpose }, { sort: { version: -1 } });
  }

  private async create(subject: string, purpose: string, version: number): Promise<DataKey | null> {
    const key = randomBytes(DATA_KEY_BYTES);
    try {
      await this.keys.insertOne({ _id: idOf(subject, purpose, version), subject, purpose, version, key, created_at: new Date().toISOString(), erased_at: null });
      return { subject, purpose, version, key };
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return null;
      throw error;
    }
  }

  private static live(doc: KeyDoc): DataKey | null {
    if (!doc.key) return null;
    const key = doc.key instanceof Binary ? Buffer.from(doc.key.buffer.subarray(0, doc.key.length())) : Buffer.from(doc.key);
    return { subject: doc.subject, purpose: doc.purpose, version: doc.version, key };
  }

  async current(subject: string, purpose: string): Promise<DataKey> {
    for (;;) {
      const top = await this.newest(subject, purpose);
      const live = top && MongoKeyStore.live(top);
      if (live) return live;
      const created = await this.create(subject, purpose, (top?.version ?? 0) + 1);
      if (created) return created;
    }
  }

  async get(subject: string, purpose: string, version: number): Promise<Buffer | null> {
    const doc = await this.keys.findOne({ _id: idOf(subject, purpose, version) });
    return doc ? (MongoKeyStore.live(doc)?.key ?? null) : null;
  }

  async rotate(subject: string, purpose: string): Promise<DataKey> {
    for (;;) {
      const top = await this.newest(subject, purpose);
      const created = await this.create(subject, purpose, (top?.version ?? 0) + 1);
      if (created) return created;
    }
  }

  async erase(subject: string, purpose: string): Promise<number> {
    const result = await this.keys.updateMany({ subject, purpose, key: { $ne: null } }, { $set: { key: null, erased_at: new Date().toISOString() } });
    return result.modifiedCount;
  }

  async import(keys: readonly DataKey[]): Promise<void> {
    if (!keys.length) return;
    const at = new Date().toISOString();
    await this.keys.bulkWrite(
      keys.map((k) => ({
        updateOne: {
          filter: { _id: idOf(k.subject, k.purpose, k.version) },
          update: { $setOnInsert: { subject: k.subject, purpose: k.purpose, version: k.version, key: k.key, created_at: at, erased_at: null } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
