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
 *
 * Sized to finish in about a minute on a 2-core machine. Durations and sizes can
 * be tuned with BENCH_* environment variables (see `settings` below).
 * Nothing here asserts on timings: the bench reports, it does not judge.
 */
import 'reflect-metadata';
import { cpus } from 'node:os';
import { runAppendBench } from './event-store.bench';
import { runHttpBench } from './http.bench';
import { runReplayBench } from './replay.bench';
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
};

async function main(): Promise<void> {
  const started = now();
  const cpu = cpus();
  log(`bench: node ${process.version}, ${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${process.platform}/${process.arch}`);

  const appends = await runAppendBench(settings.appends);
  const replay = await runReplayBench(settings.replay);
  const http = await runHttpBench(settings.http);

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
  log(`  total bench time: ${fixed(secondsSince(started), 1)} s`);
}

process.once('SIGINT', () => {
  removeTempDirs();
  process.exit(130);
});

main()
  .then(() => {
    removeTempDirs();
    // autocannon/undici keep-alive handles must not hold the process open
    process.exit(0);
  })
  .catch((error: unknown) => {
    removeTempDirs();
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
