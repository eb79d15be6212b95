/**
 * `npm run bench`: measures, in one run, three figures of the service and a
 * yardstick for each, and prints the ratios (absolute numbers drift from
 * machine to machine and run to run; the ratios are what to compare with
 * the project's performance notes).
 *
 *   1. event-store appends/s (64 concurrent single-event writers, group commit)
 *      vs a bare better-sqlite3 loop, one INSERT per transaction, same durability
 *   2. projection replay events/s (rebuild of `users`) vs readAll pages only
 *   3. HTTP register/s and login/s vs GET /health on the same app
 *   4. projection rebuild events/s into MongoReadStore (on mongo-java-server)
 *      vs into the file-backed EmbeddedReadStore, same log
 *   5. KafkaBus publish msgs/s vs a bare kafkajs producer loop (same broker,
 *      batching and concurrency), plus KafkaBus consume msgs/s
 *
 * Sections 4 and 5 run real servers (child JVMs, jars from Maven Central cached
 * in .cache/services); a server that cannot start makes its section print
 * "skipped: <reason>" and the rest of the bench goes on.
 *
 * Sized to finish in about two minutes on a 2-core machine. Durations and sizes can
 * be tuned with BENCH_* environment variables (see `settings` below).
 * Nothing here asserts on timings: the bench reports, it does not judge.
 */
import 'reflect-metadata';
import { cpus } from 'node:os';
import { BARE_PRODUCER_NOTE, type BusBenchResult, runBusBench } from './bus.bench';
import { runAppendBench } from './event-store.bench';
import { runHttpBench } from './http.bench';
import { MONGO_NOTE, type MongoProjectionBenchResult, runMongoProjectionBench } from './mongo-projection.bench';
import { runReplayBench } from './replay.bench';
import { describeFailure, stopServers } from './services';
import { envNumber, fixed, heading, int, log, now, ratio, removeTempDirs, secondsSince, table } from './util';

const settings = {
  appends: {
    writers: envNumber('BENCH_WRITERS', 64),
    storeSeconds: envNumber('BENCH_APPEND_SECONDS', 5),
    bareSeconds: envNumber('BENCH_BARE_SECONDS', 3),
    bareBatchSeconds: envNumber('BENCH_BARE_BATCH_SECONDS', 2),
    bareBatchSize: envNumber('BENCH_BARE_BATCH_SIZE', 40),
  },
  replay: {
    events: envNumber('BENCH_REPLAY_EVENTS', 50_000),
    writeBatch: 1000,
    pageSize: 2000,
  },
  http: {
    connections: envNumber('BENCH_CONNECTIONS', 64),
    healthSeconds: envNumber('BENCH_HEALTH_SECONDS', 5),
    registerSeconds: envNumber('BENCH_REGISTER_SECONDS', 10),
    loginSeconds: envNumber('BENCH_LOGIN_SECONDS', 10),
    loginPool: envNumber('BENCH_LOGIN_POOL', 200),
  },
  mongo: {
    events: envNumber('BENCH_MONGO_EVENTS', 20_000),
    writeBatch: 1000,
    pageSize: 2000,
    warmupEvents: envNumber('BENCH_MONGO_WARMUP_EVENTS', 2000),
  },
  bus: {
    messages: envNumber('BENCH_BUS_MESSAGES', 20_000),
    batchSize: envNumber('BENCH_BUS_BATCH', 100),
    publishers: envNumber('BENCH_BUS_PUBLISHERS', 4),
    keys: envNumber('BENCH_BUS_KEYS', 100),
    partitions: envNumber('BENCH_BUS_PARTITIONS', 3),
    rounds: envNumber('BENCH_BUS_ROUNDS', 2),
    warmup: envNumber('BENCH_BUS_WARMUP', 2000),
    consumeSeconds: envNumber('BENCH_BUS_CONSUME_SECONDS', 25),
  },
};

/** Sections 4 and 5 report a failure instead of ending the whole run (the exit code still says so). */
async function orFailed<T>(section: string, run: () => Promise<T>): Promise<T | { skipped: string }> {
  try {
    return await run();
  } catch (error) {
    process.exitCode = 1;
    const reason = `failed: ${describeFailure(error).reason}`;
    log(`  ${section} ${reason}`);
    if (error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return { skipped: reason };
  }
}

function skippedRow(figure: string, reason: string): string[] {
  const short = reason.length > 60 ? `${reason.slice(0, 57)}...` : reason;
  return [figure, 'skipped', short, '', 'n/a'];
}

async function main(): Promise<void> {
  const started = now();
  const cpu = cpus();
  log(`bench: node ${process.version}, ${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${process.platform}/${process.arch}`);

  const appends = await runAppendBench(settings.appends);
  const replay = await runReplayBench(settings.replay);
  const http = await runHttpBench(settings.http);
  const mongo: MongoProjectionBenchResult | { skipped: string } = await orFailed('section 4', () =>
    runMongoProjectionBench(settings.mongo),
  );
  const bus: BusBenchResult | { skipped: string } = await orFailed('section 5', () => runBusBench(settings.bus));

  heading('Summary');
  const rows: string[][] = [
    [
      `event-store appends (${settings.appends.writers} writers)`,
      `${int(appends.store.eventsPerSecond)} ev/s`,
      'bare sqlite, 1 insert/tx',
      `${int(appends.bare.eventsPerSecond)} ev/s`,
      ratio(appends.store.eventsPerSecond, appends.bare.eventsPerSecond),
    ],
    [
      `  context: bare, ${appends.bareBatched.batchSize} inserts/tx`,
      `${int(appends.bareBatched.eventsPerSecond)} ev/s`,
      'bare sqlite, 1 insert/tx',
      `${int(appends.bare.eventsPerSecond)} ev/s`,
      ratio(appends.bareBatched.eventsPerSecond, appends.bare.eventsPerSecond),
    ],
    [
      `projection replay (users, ${int(replay.events)} ev)`,
      `${int(replay.rebuild.eventsPerSecond)} ev/s`,
      'readAll pages only',
      `${int(replay.readAll.eventsPerSecond)} ev/s`,
      ratio(replay.rebuild.eventsPerSecond, replay.readAll.eventsPerSecond),
    ],
    [
      'HTTP POST /api/social/register',
      `${int(http.register.requestsPerSecond)} req/s`,
      'GET /health',
      `${int(http.health.requestsPerSecond)} req/s`,
      ratio(http.register.requestsPerSecond, http.health.requestsPerSecond),
    ],
    [
      'HTTP POST /api/social/login',
      `${int(http.login.requestsPerSecond)} req/s`,
      'GET /health',
      `${int(http.health.requestsPerSecond)} req/s`,
      ratio(http.login.requestsPerSecond, http.health.requestsPerSecond),
    ],
    [
      '  context: argon2id hash alone',
      `${int(http.argon2PerSecond)} /s`,
      'ceiling of register/login',
      '',
      `reg ${ratio(http.register.requestsPerSecond, http.argon2PerSecond)}, login ${ratio(http.login.requestsPerSecond, http.argon2PerSecond)}`,
    ],
  ];
  if (mongo.skipped === null) {
    rows.push([
      `projection rebuild → MongoReadStore (${int(mongo.events)} ev)`,
      `${int(mongo.mongo.eventsPerSecond)} ev/s`,
      'same → EmbeddedReadStore',
      `${int(mongo.embedded.eventsPerSecond)} ev/s`,
      ratio(mongo.mongo.eventsPerSecond, mongo.embedded.eventsPerSecond),
    ]);
  } else {
    rows.push(skippedRow('projection rebuild → MongoReadStore', mongo.skipped));
  }
  if (bus.skipped === null) {
    rows.push(
      [
        `KafkaBus.publish (${settings.bus.publishers} x batches of ${settings.bus.batchSize})`,
        `${int(bus.busPublish.messagesPerSecond)} msg/s`,
        'bare kafkajs producer.send',
        `${int(bus.barePublish.messagesPerSecond)} msg/s`,
        ratio(bus.busPublish.messagesPerSecond, bus.barePublish.messagesPerSecond),
      ],
      [
        `  KafkaBus consume (1 group, commit/msg)${bus.busConsume.complete ? '' : ' [capped]'}`,
        `${int(bus.busConsume.messagesPerSecond)} msg/s`,
        bus.bareConsume ? 'bare kafkajs consumer' : 'bare consumer failed',
        bus.bareConsume ? `${int(bus.bareConsume.messagesPerSecond)} msg/s` : '',
        bus.bareConsume ? ratio(bus.busConsume.messagesPerSecond, bus.bareConsume.messagesPerSecond) : 'n/a',
      ],
    );
  } else {
    rows.push(skippedRow('KafkaBus.publish', bus.skipped));
  }
  log(table(['figure', 'value', 'yardstick', 'yardstick value', 'ratio'], rows));
  log();
  log(
    `  appends: ${int(appends.store.commits)} commits, ${fixed(appends.store.eventsPerCommit, 1)} events/commit` +
      (appends.store.errors ? `, ${int(appends.store.errors)} failed appends` : ''),
  );
  log(
    `  HTTP latency p50/p99 (ms): health ${int(http.health.p50)}/${int(http.health.p99)}, ` +
      `register ${int(http.register.p50)}/${int(http.register.p99)}, login ${int(http.login.p50)}/${int(http.login.p99)}`,
  );
  log(
    `  HTTP non-2xx: health ${int(http.health.non2xx)}, register ${int(http.register.non2xx)}, login ${int(http.login.non2xx)}` +
      `; errors: ${int(http.health.errors + http.register.errors + http.login.errors)}`,
  );
  log(`  register/login are argon2id-bound (PASSWORD_HASH_MEMORY_KIB=${http.hashMemoryKib}); their ratio to /health is expected to be small.`);
  if (mongo.skipped === null) {
    log(
      `  mongo: ${MONGO_NOTE}; the ratio is the adapter against that server` +
        (mongo.differences ? ` (! ${int(mongo.differences)} documents differ from the embedded rebuild)` : '') +
        '.',
    );
  } else {
    log(`  mongo section skipped: ${mongo.skipped}`);
  }
  if (bus.skipped === null) {
    log(`  bus: ${BARE_PRODUCER_NOTE}.`);
    log(
      `  bus consume: KafkaBus ${int(bus.busConsume.messagesPerSecond)} msg/s = ` +
        `${ratio(bus.busConsume.messagesPerSecond, bus.busPublish.messagesPerSecond)} of its publish rate` +
        (bus.busConsume.complete ? '' : ` (capped at BENCH_BUS_CONSUME_SECONDS=${settings.bus.consumeSeconds}: ${int(bus.busConsume.messages)} of ${int(settings.bus.messages)} read)`) +
        '; the bare consumer commits once per fetched batch, KafkaBus once per message.',
    );
  } else {
    log(`  bus section skipped: ${bus.skipped}`);
  }
  log(`  total bench time: ${fixed(secondsSince(started), 1)} s`);
}

/** Stops the servers of sections 4 and 5 (bounded: their launchers SIGKILL on exit anyway), removes temp dirs. */
async function cleanUp(): Promise<void> {
  await Promise.race([stopServers(), new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
  removeTempDirs();
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(code));
  });
}

main()
  .then(async () => {
    await cleanUp();
    // autocannon/undici keep-alive handles must not hold the process open
    process.exit(process.exitCode ?? 0);
  })
  .catch(async (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await cleanUp();
    process.exit(1);
  });
