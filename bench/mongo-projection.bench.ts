/**
 * Section 4: projection rebuild into MongoDB vs the bare driver.
 *
 * One account log (section 2's generator) in a temp SqliteEventStore is
 * rebuilt with ProjectionEngine.rebuild(usersProjection), the way
 * `npm run projections:rebuild` does it, into
 *   (1) a fresh file-backed EmbeddedReadStore (context), and
 *   (2) a MongoReadStore on mongo-java-server (test/support/services): the
 *       replay runs into an in-memory store, then the finished documents are
 *       loaded with ReadStore.load (insertMany in chunks), indexes after.
 * Yardstick (issue 12): the final documents of (2), read back and written
 * with the bare driver's insertMany (default options) into a fresh collection
 * of another database on the same server, in the same run. The ratio is time
 * against time: t(insertMany) / t(rebuild), 1.0 meaning the rebuild costs no
 * more than writing its result once.
 * A small separate log is rebuilt into both first, untimed (the server's JVM
 * starts cold), and the bare client inserts a few documents untimed. Both read
 * models are then compared document by document.
 *
 * mongo-java-server is an in-memory Java reimplementation of MongoDB's wire
 * protocol, not MongoDB: the figure measures the adapter's round trips and
 * encoding against that server, not what a real mongod would sustain.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { SqliteEventStore } from '../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { ProjectionEngine } from '../src/infrastructure/projections/projection-engine';
import { EmbeddedReadStore } from '../src/infrastructure/read-store/embedded/embedded-read-store';
import { MongoReadStore } from '../src/infrastructure/read-store/mongodb/mongo-read-store';
import type { Doc, ReadStore } from '../src/infrastructure/read-store/read-store.port';
import { ALL_PROJECTIONS } from '../src/projections';
import { USERS, usersProjection } from '../src/projections/accounts/users.projection';
import { countUsers, generate } from './replay.bench';
import { describeFailure, isCached, startMongo } from './services';
import { fixed, heading, int, log, makeTempDir, now, progress, ratio, removeTempDir, secondsSince } from './util';

export interface MongoProjectionBenchOptions {
  events: number;
  /** events issued per group-commit batch while generating the log */
  writeBatch: number;
  /** page size of the rebuilds (the rebuild's default) */
  pageSize: number;
  /** events of a separate, untimed log rebuilt into both stores first (warms the server's JVM and this process) */
  warmupEvents: number;
}

export interface RebuildRun {
  seconds: number;
  eventsPerSecond: number;
  documents: number;
}

export type MongoProjectionBenchResult =
  | { skipped: string }
  | {
      skipped: null;
      events: number;
      users: number;
      serverStartSeconds: number;
      embedded: RebuildRun;
      mongo: RebuildRun;
      /** the bare driver's insertMany of the final documents of the MongoDB rebuild (the yardstick) */
      bareInsert: { seconds: number; documents: number; documentsPerSecond: number };
      /** documents whose content differs between the two read models (0 when identical) */
      differences: number;
    };

export const MONGO_NOTE =
  'mongo-java-server is an in-memory Java reimplementation of the MongoDB wire protocol, not MongoDB';

async function rebuildInto(
  label: string,
  eventStore: SqliteEventStore,
  readStore: ReadStore,
  head: number,
  pageSize: number,
): Promise<RebuildRun & { events: number }> {
  const runner = new ProjectionEngine(eventStore, readStore, { all: () => ALL_PROJECTIONS });
  const bar = progress(`rebuild users → ${label}`, head, 'positions');
  const start = now();
  const rebuilt = await runner.rebuild([usersProjection], (position) => bar.update(position), pageSize);
  const seconds = secondsSince(start);
  bar.stop();
  const documents = await readStore.collection(USERS).countDocuments({});
  // the log's events per second, whatever share of them the projection handles (head = the log's size here)
  return { events: head, seconds, eventsPerSecond: head / seconds, documents };
}

/** Key-order-independent JSON, to compare documents from two stores. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

async function snapshot(store: ReadStore): Promise<Map<string, string>> {
  const docs = await store.collection<Doc>(USERS).find({}, { sort: { _id: 1 } });
  return new Map(docs.map((d) => [d._id, canonical(d)]));
}

function differences(a: Map<string, string>, b: Map<string, string>): number {
  let count = 0;
  for (const [id, doc] of a) if (b.get(id) !== doc) count++;
  for (const id of b.keys()) if (!a.has(id)) count++;
  return count;
}

/** insertMany of `docs` with a bare MongoClient into a fresh database; a small untimed insert first warms the connection. */
async function bareInsertMany(url: string, docs: Doc[]): Promise<{ seconds: number; documents: number; documentsPerSecond: number }> {
  const client = new MongoClient(url);
  const db = client.db(`bench_bare_${randomBytes(4).toString('hex')}`);
  try {
    await client.connect();
    await db.collection<Doc>('warmup').insertMany(docs.slice(0, 500).map((d) => ({ ...d })));
    await db.collection<Doc>('warmup').drop();
    const start = now();
    await db.collection<Doc>(USERS).insertMany(docs);
    const seconds = secondsSince(start);
    return { seconds, documents: docs.length, documentsPerSecond: docs.length / seconds };
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  }
}

export async function runMongoProjectionBench(options: MongoProjectionBenchOptions): Promise<MongoProjectionBenchResult> {
  heading('4. Projection rebuild into MongoDB (mongo-java-server) vs bare driver insertMany');
  log(`  note: ${MONGO_NOTE};`);
  log('  its figures say how the adapter fares against that server, not what a real mongod sustains.');

  if (!isCached('mongo-java-server-1.47')) log('  (mongo-java-server jars not cached yet: fetching them with Maven first)');
  const startAt = now();
  let server: Awaited<ReturnType<typeof startMongo>>;
  try {
    server = await startMongo();
  } catch (error) {
    const { reason, detail } = describeFailure(error);
    log(`  skipped: mongo-java-server did not start: ${reason}`);
    for (const line of detail.slice(-10)) log(`    | ${line}`);
    return { skipped: `mongo-java-server did not start: ${reason}` };
  }
  const serverStartSeconds = secondsSince(startAt);
  log(`  mongo-java-server 1.47 (in-memory backend) at ${server.url.replace(/\/\?.*$/, '')}, started in ${fixed(serverStartSeconds, 1)} s`);

  const dir = makeTempDir('mongo-projection');
  const eventStore = new SqliteEventStore({ file: join(dir, 'events.db') });
  let embedded: EmbeddedReadStore | null = null;
  let mongo: MongoReadStore | null = null;
  try {
    const genStart = now();
    const generated = await generate(eventStore, options.events, options.writeBatch);
    const head = await eventStore.headPosition();
    const users = await countUsers(eventStore, options.pageSize);
    log(
      `  generated ${int(generated.events)} account events on ${int(generated.streams)} streams ` +
        `(${int(users)} accounts) in ${fixed(secondsSince(genStart), 2)} s; rebuilds read pages of ${int(options.pageSize)}`,
    );

    // the MongoDB adapter, in a database of its own
    const database = `bench_${randomBytes(4).toString('hex')}`;
    try {
      mongo = await MongoReadStore.connect({ url: server.url, database });
    } catch (error) {
      const { reason } = describeFailure(error);
      log(`  skipped: MongoReadStore could not connect: ${reason}`);
      return { skipped: `MongoReadStore could not connect: ${reason}` };
    }

    if (options.warmupEvents > 0) {
      const warmStart = now();
      const warmLog = new SqliteEventStore({ file: join(dir, 'warmup-events.db') });
      const warmEmbedded = new EmbeddedReadStore({ file: join(dir, 'warmup-read-models.db') });
      try {
        await generate(warmLog, options.warmupEvents, options.writeBatch);
        const warmHead = await warmLog.headPosition();
        await rebuildInto('embedded (warm-up)', warmLog, warmEmbedded, warmHead, options.pageSize);
        await rebuildInto('mongo (warm-up)', warmLog, mongo, warmHead, options.pageSize);
      } finally {
        await warmEmbedded.close();
        await warmLog.close();
      }
      log(`  warm-up: a separate log of ${int(options.warmupEvents)} events rebuilt into both stores in ${fixed(secondsSince(warmStart), 2)} s (untimed)`);
    }

    // (1) yardstick: the embedded store, file-backed, as in section 2
    embedded = new EmbeddedReadStore({ file: join(dir, 'read-models.db') });
    const embeddedRun = await rebuildInto('embedded', eventStore, embedded, head, options.pageSize);
    log(
      `  (1) EmbeddedReadStore (file): ${int(embeddedRun.events)} events in ${fixed(embeddedRun.seconds, 2)} s = ` +
        `${int(embeddedRun.eventsPerSecond)} events/s (${int(embeddedRun.documents)} user documents)`,
    );

    // (2) the MongoDB adapter (the rebuild drops the warm-up's read model first)
    const mongoRun = await rebuildInto('mongo', eventStore, mongo, head, options.pageSize);
    log(
      `  (2) MongoReadStore (mongo-java-server): ${int(mongoRun.events)} events in ${fixed(mongoRun.seconds, 2)} s = ` +
        `${int(mongoRun.eventsPerSecond)} events/s (${int(mongoRun.documents)} user documents)`,
    );
    log(`  context: ratio mongo / embedded: ${ratio(mongoRun.eventsPerSecond, embeddedRun.eventsPerSecond)}`);

    // (3) yardstick: the rebuilt documents, written once with the bare driver
    const bareInsert = await bareInsertMany(server.url, await mongo.collection<Doc>(USERS).find({}));
    log(
      `  (3) yardstick: bare driver insertMany of the ${int(bareInsert.documents)} rebuilt documents into a fresh collection: ` +
        `${fixed(bareInsert.seconds, 2)} s = ${int(bareInsert.documentsPerSecond)} documents/s`,
    );
    log(`  ratio t(insertMany) / t(rebuild into mongo): ${ratio(bareInsert.seconds, mongoRun.seconds)}`);

    for (const [name, run] of [
      ['embedded', embeddedRun],
      ['mongo', mongoRun],
    ] as const) {
      if (run.documents !== users) log(`  ! ${name}: expected ${int(users)} user documents, found ${int(run.documents)}`);
    }
    const differing = differences(await snapshot(embedded), await snapshot(mongo));
    log(
      differing === 0
        ? `  check: both read models hold the same ${int(embeddedRun.documents)} user documents`
        : `  ! check: ${int(differing)} user documents differ between the two read models`,
    );

    return {
      skipped: null,
      events: embeddedRun.events,
      users,
      serverStartSeconds,
      embedded: { seconds: embeddedRun.seconds, eventsPerSecond: embeddedRun.eventsPerSecond, documents: embeddedRun.documents },
      mongo: { seconds: mongoRun.seconds, eventsPerSecond: mongoRun.eventsPerSecond, documents: mongoRun.documents },
      bareInsert,
      differences: differing,
    };
  } finally {
    await mongo?.close().catch(() => undefined);
    await embedded?.close().catch(() => undefined);
    await eventStore.close().catch(() => undefined);
    removeTempDir(dir);
    await server.stop();
  }
}
