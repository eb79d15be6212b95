/**
 * Section 8: the performance core (issue 12's bars), in one run.
 *
 *   A. POST /api/social/encounter/sighting on the real app (child process,
 *      embedded default) vs the yardstick route of
 *      shared/reference/performance-notes.md (bench/yardstick-server.ts: bare
 *      Fastify, fast-jwt, a body checked by hand, one durable SQLite append
 *      with group commit), both under autocannon with the same connections:
 *      req/s, p50, p99. Bars: req/s ratio >= 0.5, sighting p99 <= 2x the
 *      yardstick's.
 *   B. the same sighting on a second app with `extraProjections` more
 *      projections registered (each applies SightingRecorded and writes
 *      nothing; BENCH_EXTRA_PROJECTIONS of bench/http-server.ts) vs A's app.
 *      Bar: >= 0.9. A and B run in rounds (yardstick, app, app+extra, then the
 *      reverse order), so a neighbour's load falls on all three alike; the
 *      figures are the medians over the rounds.
 *   C. command latency, in process: a CommandExecutor over a file-backed
 *      SqliteEventStore and an embedded read store (no projection registered,
 *      so no read-your-writes wait: the figure is load + decide + append), the
 *      user decider's recordLogin, one command at a time: on a user stream of
 *      `streamEvents` events vs on a new stream (a user registered just before,
 *      untimed), interleaved. Bar: p50 and p99 ratio <= 1.5. With the state
 *      cache on (default) and off (AGGREGATE_CACHE_SIZE=0), for context; the
 *      first command on the long stream (nothing cached yet) is shown apart.
 *   D. /ready after a restart with `readyEvents` events in the log: the account
 *      log of section 2 written straight into DATA_DIR/events.db, the app
 *      started once (its projections catch up: timed, context), stopped,
 *      started again (`restarts` times, the median is the figure); from fork
 *      to the first 200 of GET /ready (polled). Bar: < 3 s. File sizes reported; for context, the same start on an
 *      empty DATA_DIR (what booting the app costs without any log).
 *   E. resident memory per 100,000 read-model documents: `users` documents of
 *      a rebuild (cloned with fresh ids up to the size) written to a
 *      read-model file; a fresh process (bench/memory-probe.ts) opens it in an
 *      EmbeddedReadStore; RSS after a full GC, at two sizes; the slope in MB
 *      per 100,000 documents.
 *
 * Each part that fails prints "skipped: <reason>" and the section goes on.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { type UserCommand, userDecider } from '../src/aggregates/accounts/user';
import { type UserEvent, userStreamId } from '../src/aggregates/accounts/user.events';
import { loadConfig } from '../src/config/config';
import { SystemClock } from '../src/infrastructure/clock';
import { type NewEvent, NO_STREAM } from '../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { UpcasterRegistry } from '../src/infrastructure/eventsourcing/upcasters';
import { ProjectionEngine } from '../src/infrastructure/projections/projection-engine';
import { ProjectionRegistry } from '../src/infrastructure/projections/projection-registry';
import { ReadYourWrites } from '../src/infrastructure/projections/read-your-writes';
import { EmbeddedReadStore } from '../src/infrastructure/read-store/embedded/embedded-read-store';
import { defaultIndexName } from '../src/infrastructure/read-store/embedded/embedded-index';
import { SqliteReadStoreFile } from '../src/infrastructure/read-store/embedded/sqlite-read-store-file';
import type { Doc } from '../src/infrastructure/read-store/read-store.port';
import { ALL_PROJECTIONS } from '../src/projections';
import { USERS, usersProjection } from '../src/projections/accounts/users.projection';
import { CommandExecutor } from '../src/modules/common/command-executor';
import { part } from './contest.bench';
import { ms, percentile } from './contest-reads.bench';
import { APP_ENV, discoverableUser, ENC, JSON_HEADERS, SIGHTING, type User } from './encounter-chat.bench';
import { cannon, type HttpRun, printRun, type Server, startServer } from './http.bench';
import type { MemoryMessage } from './memory-probe';
import { generate, generateEvents } from './replay.bench';
import { fixed, heading, int, log, makeTempDir, now, progress, ratio, removeTempDir, secondsSince, sleep } from './util';
import type { YardstickMessage } from './yardstick-server';

export interface PerfCoreOptions {
  connections: number;
  /** seconds of each autocannon run of A and B */
  seconds: number;
  /** rounds of A and B (each: yardstick, app, app + extra projections; alternate rounds in reverse order); medians over them */
  rounds: number;
  extraProjections: number;
  /** C: events on the long stream */
  streamEvents: number;
  /** C: timed commands per stream kind with the state cache on (enough for a steady p99) */
  commands: number;
  /** C: the same with the cache off (each long-stream command folds the whole stream) */
  uncachedCommands: number;
  /** D: events in the log */
  readyEvents: number;
  /** D: events per transaction while writing the log */
  readyWriteBatch: number;
  /** D: restarts timed (the median is the figure) */
  restarts: number;
  /** D: how long the first start may take to catch up */
  readyTimeoutSeconds: number;
  /** E: the two sizes (documents) */
  memoryDocs: [number, number];
  /** E: events of the log rebuilt for the documents' shapes */
  memoryTemplateEvents: number;
}

/** The medians of several autocannon runs of one target. */
export interface HttpMedian {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  runs: HttpRun[];
  non2xx: number;
  errors: number;
}

export interface HttpPart {
  fastifyVersion: string;
  yardstick: HttpMedian;
  sighting: HttpMedian;
  sightingExtra: HttpMedian;
  /** the yardstick's group commit: transactions and events written */
  yardstickCommits: { commits: number; events: number } | null;
}

export interface Latency {
  count: number;
  p50: number;
  p99: number;
  mean: number;
}

export interface CommandRun {
  cache: 'on' | 'off';
  fresh: Latency;
  long: Latency;
  /** the first command on the long stream, nothing cached yet (ms) */
  coldFirst: number;
  hits: number;
  misses: number;
}

export interface CommandPart {
  streamEvents: number;
  on: CommandRun;
  off: CommandRun;
}

export interface ReadyPart {
  events: number;
  accounts: number | null;
  generateSeconds: number;
  firstStart: { seconds: number; listeningSeconds: number };
  /** the same app on an empty DATA_DIR: what a start costs without any log */
  emptyStart: { seconds: number; listeningSeconds: number };
  /** the median restart */
  restart: { seconds: number; listeningSeconds: number; childListeningUptime: number };
  /** every restart's seconds to /ready 200 */
  restarts: number[];
  files: { name: string; bytes: number }[];
}

export interface MemorySize {
  documents: number;
  fileBytes: number;
  loadSeconds: number;
  baselineRssMb: number;
  rssMb: number;
  heapUsedMb: number;
}

export interface MemoryPart {
  sizes: MemorySize[];
  /** RSS slope between the two sizes */
  rssMbPer100k: number;
  heapMbPer100k: number;
  templates: number;
}

export interface PerfCoreResult {
  http: HttpPart | { skipped: string };
  commands: CommandPart | { skipped: string };
  ready: ReadyPart | { skipped: string };
  memory: MemoryPart | { skipped: string };
  seconds: number;
}

const MB = 1024 * 1024;

// ---------------------------------------------------------------- A and B

interface Yardstick {
  url: string;
  token: string;
  fastifyVersion: string;
  stop(): Promise<{ commits: number; events: number } | null>;
}

async function startYardstick(dataDir: string): Promise<Yardstick> {
  const child = fork(join(__dirname, 'yardstick-server.js'), [], {
    env: { ...process.env, BENCH_DATA_DIR: dataDir },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stats: { commits: number; events: number } | null = null;
  const ready = await new Promise<Extract<YardstickMessage, { type: 'ready' }>>((resolve, reject) => {
    child.on('message', (message: YardstickMessage) => {
      if (message.type === 'ready') resolve(message);
      else if (message.type === 'stats') stats = { commits: message.commits, events: message.events };
      else reject(new Error(`yardstick failed to start: ${message.message}`));
    });
    void exited.then((code) => reject(new Error(`yardstick process exited (code ${code}) before it was ready`)));
  });
  return {
    url: ready.url,
    token: ready.token,
    fastifyVersion: ready.fastifyVersion,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.send({ type: 'close' });
        const timeout = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timeout);
      }
      return stats;
    },
  };
}

function sightingRequest(url: string, token: string, peerPubkey: string): autocannon.Options {
  return {
    url,
    requests: [
      {
        method: 'POST',
        path: `${ENC}/sighting`,
        headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
        body: JSON.stringify(SIGHTING({ pubkey: peerPubkey } as User)),
      },
    ],
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Medians over the rounds: one round caught in a neighbour's burst moves them less than it would a mean. */
function medians(name: string, runs: HttpRun[]): HttpMedian {
  const of = (f: (r: HttpRun) => number) => median(runs.map(f));
  return {
    name,
    requestsPerSecond: of((r) => r.requestsPerSecond),
    p50: of((r) => r.p50),
    p99: of((r) => r.p99),
    runs,
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
    errors: runs.reduce((s, r) => s + r.errors, 0),
  };
}

function printMedians(m: HttpMedian): void {
  log(
    `    ${m.name.padEnd(34)} ${int(m.requestsPerSecond).padStart(7)} req/s  p50 ${fixed(m.p50, 1)} ms  p99 ${fixed(m.p99, 1)} ms  ` +
      `(median of ${m.runs.length}: ${m.runs.map((r) => int(r.requestsPerSecond)).join(', ')} req/s; non-2xx ${int(m.non2xx)}, errors ${int(m.errors)})`,
  );
}

/** A sighter and a discoverable peer on one app. */
async function sightingPair(url: string, prefix: string): Promise<{ sighter: User; peer: User }> {
  const sighter = await discoverableUser(url, `${prefix}_s`);
  const peer = await discoverableUser(url, `${prefix}_p`);
  return { sighter, peer };
}

async function runHttp(options: PerfCoreOptions): Promise<HttpPart> {
  log(
    `  A/B. POST ${ENC}/sighting, ${options.connections} connections, ${options.rounds} round(s) of ${options.seconds} s per target: ` +
      `yardstick route vs the app vs the app with ${options.extraProjections} more (empty) projections`,
  );
  const dirs = { yardstick: makeTempDir('core-yardstick'), app: makeTempDir('core-app'), extra: makeTempDir('core-extra') };
  let yardstick: Yardstick | null = null;
  let app: Server | null = null;
  let extra: Server | null = null;
  let yardstickCommits: HttpPart['yardstickCommits'] = null;
  try {
    const startAt = now();
    [yardstick, app, extra] = await Promise.all([
      startYardstick(dirs.yardstick),
      startServer(dirs.app, APP_ENV),
      startServer(dirs.extra, APP_ENV, { childEnv: { BENCH_EXTRA_PROJECTIONS: String(options.extraProjections) } }),
    ]);
    log(
      `    started in ${fixed(secondsSince(startAt), 1)} s, each in its own process: yardstick (Fastify ${yardstick.fastifyVersion}, fast-jwt cache on, ` +
        `better-sqlite3 WAL + synchronous=FULL, group commit per setImmediate), app, app + ${options.extraProjections} projections ` +
        `(${Object.entries(APP_ENV)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')})`,
    );
    const prefix = `k${randomUUID().slice(0, 6)}`;
    const [pairApp, pairExtra] = await Promise.all([sightingPair(app.url, `${prefix}a`), sightingPair(extra.url, `${prefix}b`)]);
    const targets = {
      yardstick: { name: 'yardstick route', request: sightingRequest(yardstick.url, yardstick.token, pairApp.peer.pubkey) },
      app: { name: 'app sighting', request: sightingRequest(app.url, pairApp.sighter.token, pairApp.peer.pubkey) },
      extra: { name: `app sighting +${options.extraProjections} projections`, request: sightingRequest(extra.url, pairExtra.sighter.token, pairExtra.peer.pubkey) },
    };
    type Key = keyof typeof targets;
    // warm-up: JIT, connections, first-request paths
    for (const key of Object.keys(targets) as Key[]) await autocannon({ ...targets[key].request, connections: options.connections, duration: 1 });

    const runs: Record<Key, HttpRun[]> = { yardstick: [], app: [], extra: [] };
    for (let round = 0; round < options.rounds; round++) {
      const order: Key[] = round % 2 === 0 ? ['yardstick', 'app', 'extra'] : ['extra', 'app', 'yardstick'];
      for (const key of order) {
        // BENCH_PROFILE_DIR: the app child profiles its measured rounds (see bench/http-server.ts)
        const profiled = process.env.BENCH_PROFILE_DIR && key === 'app' ? app : null;
        profiled?.child.kill('SIGUSR2');
        const run = await cannon(`${targets[key].name} (round ${round + 1})`, { ...targets[key].request, connections: options.connections }, options.seconds);
        profiled?.child.kill('SIGUSR2');
        printRun(run, options.seconds, '    ');
        runs[key].push(run);
      }
    }
    const result = {
      yardstick: medians(targets.yardstick.name, runs.yardstick),
      sighting: medians(targets.app.name, runs.app),
      sightingExtra: medians(targets.extra.name, runs.extra),
    };
    log();
    printMedians(result.yardstick);
    printMedians(result.sighting);
    printMedians(result.sightingExtra);
    log(
      `    A. ratio sighting / yardstick: ${ratio(result.sighting.requestsPerSecond, result.yardstick.requestsPerSecond)} (bar >= 0.5); ` +
        `p99 ${fixed(result.sighting.p99, 1)} ms vs ${fixed(result.yardstick.p99, 1)} ms = ${ratio(result.sighting.p99, result.yardstick.p99)} (bar <= 2x)`,
    );
    log(
      `    B. ratio with ${options.extraProjections} more projections / without: ` +
        `${ratio(result.sightingExtra.requestsPerSecond, result.sighting.requestsPerSecond)} (bar >= 0.9)`,
    );
    const stopping = yardstick;
    const fastifyVersion = stopping.fastifyVersion;
    yardstick = null;
    yardstickCommits = await stopping.stop();
    if (yardstickCommits) {
      log(
        `    yardstick group commit: ${int(yardstickCommits.events)} events in ${int(yardstickCommits.commits)} transactions = ` +
          `${fixed(yardstickCommits.events / Math.max(1, yardstickCommits.commits), 1)} events per commit`,
      );
    }
    return { fastifyVersion, ...result, yardstickCommits };
  } finally {
    await Promise.all([yardstick?.stop(), app?.stop(), extra?.stop()]);
    for (const dir of Object.values(dirs)) removeTempDir(dir);
  }
}

// ---------------------------------------------------------------- C

const NODE_ID = 'bench-core';
const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0YmVuY2g$YmVuY2hoYXNoYmVuY2hoYXNoYmVuY2hoYXNoYmVuY2g';

function registration(userId: string, name: string): Extract<UserCommand, { kind: 'register' }>['registration'] {
  return { user_id: userId, username: name, email: `${name}@example.com`, display_name: name, role: 'user', user_type: 'human', password_hash: PASSWORD_HASH };
}

const login = (): UserCommand => ({ kind: 'recordLogin', tokenId: randomUUID(), method: 'password', passwordVerified: true });

/** A user stream of `events` events (registration + logins), appended directly in chunks of 1,000. */
async function writeLongStream(store: SqliteEventStore, userId: string, events: number): Promise<void> {
  const streamId = userStreamId(userId);
  const at = new Date().toISOString();
  const event = (e: UserEvent): NewEvent => ({
    type: e.type,
    data: e.data as unknown as NewEvent['data'],
    metadata: { eventId: randomUUID(), correlationId: randomUUID(), causationId: null, actor: userId, nodeId: NODE_ID, occurredAt: at, schemaVersion: 1 },
  });
  let batch: NewEvent[] = [event({ type: 'UserRegistered', data: { ...registration(userId, `long_${userId.slice(0, 8)}`), registered_at: at } })];
  let revision = -1;
  const flush = async (): Promise<void> => {
    const result = await store.append(streamId, batch, revision < 0 ? NO_STREAM : revision);
    revision = result.nextExpectedRevision;
    batch = [];
  };
  for (let i = 1; i < events; i++) {
    batch.push(event({ type: 'UserLoggedIn', data: { user_id: userId, token_id: randomUUID(), method: 'password', at } }));
    if (batch.length >= 1000) await flush();
  }
  if (batch.length > 0) await flush();
}

/** As src/modules/common/command-executor.spec.ts builds one: no projection registered, so no read-your-writes wait. */
function executorOver(store: SqliteEventStore, reads: EmbeddedReadStore, dataDir: string, cacheSize: number): CommandExecutor {
  const config = loadConfig({ DATA_DIR: dataDir, NODE_ID, AGGREGATE_CACHE_SIZE: String(cacheSize) });
  const registry = new ProjectionRegistry();
  const engine = new ProjectionEngine(store, reads, registry);
  return new CommandExecutor(store, config, new SystemClock(), new UpcasterRegistry(), new ReadYourWrites(config, 'api', reads, registry, engine));
}

function latencyOf(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean: sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length) };
}

async function commandRun(store: SqliteEventStore, reads: EmbeddedReadStore, dir: string, cache: 'on' | 'off', options: PerfCoreOptions): Promise<CommandRun> {
  const executor = executorOver(store, reads, dir, cache === 'on' ? loadConfig({ DATA_DIR: dir, NODE_ID }).aggregateCacheSize : 0);
  const context = { actor: 'system:bench', correlationId: randomUUID() };
  const longUser = randomUUID();
  await writeLongStream(store, longUser, options.streamEvents);
  const longStream = userStreamId(longUser);
  let seq = 0;
  const freshLogin = async (): Promise<number> => {
    const userId = randomUUID();
    const stream = userStreamId(userId);
    await executor.execute(userDecider, stream, { kind: 'register', registration: registration(userId, `core_${cache}_${seq++}`) }, context);
    const start = now();
    await executor.execute(userDecider, stream, login(), context);
    return secondsSince(start) * 1000;
  };
  const longLogin = async (): Promise<number> => {
    const start = now();
    await executor.execute(userDecider, longStream, login(), context);
    return secondsSince(start) * 1000;
  };

  const coldFirst = await longLogin();
  for (let i = 0; i < 20; i++) {
    await freshLogin();
    await longLogin();
  }
  const fresh: number[] = [];
  const long: number[] = [];
  const count = cache === 'on' ? options.commands : options.uncachedCommands;
  const bar = progress(`commands, cache ${cache}`, count, 'pairs');
  for (let i = 0; i < count; i++) {
    fresh.push(await freshLogin());
    long.push(await longLogin());
    bar.update(i + 1);
  }
  bar.stop();
  const { hits, misses } = executor.cacheStats;
  return { cache, fresh: latencyOf(fresh), long: latencyOf(long), coldFirst, hits, misses };
}

async function runCommands(options: PerfCoreOptions): Promise<CommandPart> {
  log(
    `  C. command latency (in process): user recordLogin on a stream of ${int(options.streamEvents)} events vs on a new stream, ` +
      `${int(options.commands)} of each with the state cache on, ${int(options.uncachedCommands)} with it off, one at a time, interleaved`,
  );
  const dir = makeTempDir('core-commands');
  const store = new SqliteEventStore({ file: join(dir, 'events.db') });
  const reads = new EmbeddedReadStore({ file: join(dir, 'read-models.db') });
  try {
    const runs: CommandRun[] = [];
    for (const cache of ['on', 'off'] as const) {
      const run = await commandRun(store, reads, dir, cache, options);
      runs.push(run);
      const l = (x: Latency) => `p50 ${ms(x.p50)} ms, p99 ${ms(x.p99)} ms`;
      log(
        `    cache ${cache.padEnd(3)}: new stream ${l(run.fresh)}; ${int(options.streamEvents)}-event stream ${l(run.long)}; ` +
          `ratio p50 ${ratio(run.long.p50, run.fresh.p50)}, p99 ${ratio(run.long.p99, run.fresh.p99)}` +
          `${cache === 'on' ? ' (bar <= 1.5x)' : ''}; first command on the long stream (cold) ${ms(run.coldFirst)} ms; ` +
          `cache hits ${int(run.hits)}, misses ${int(run.misses)}`,
      );
    }
    log('    (no projection registered: no read-your-writes wait; each command is one durable append, synchronous=FULL)');
    return { streamEvents: options.streamEvents, on: runs[0], off: runs[1] };
  } finally {
    await reads.close();
    await store.close();
    removeTempDir(dir);
  }
}

// ---------------------------------------------------------------- D

function fileSizes(dir: string, names: string[]): { name: string; bytes: number }[] {
  return names.filter((name) => existsSync(join(dir, name))).map((name) => ({ name, bytes: statSync(join(dir, name)).size }));
}

function formatSizes(files: { name: string; bytes: number }[]): string {
  return files.map((f) => `${f.name} ${fixed(f.bytes / MB, 1)} MB`).join(', ');
}

const DATA_FILES = ['events.db', 'events.db-wal', 'read-models.db', 'read-models.db-wal'];

interface StartTiming {
  /** from fork to the first 200 of GET /ready */
  seconds: number;
  /** from fork to the port open */
  listeningSeconds: number;
  /** the child's process.uptime() when its port opened */
  childListeningUptime: number;
}

function medianStart(starts: StartTiming[]): StartTiming {
  return [...starts].sort((a, b) => a.seconds - b.seconds)[Math.floor((starts.length - 1) / 2)];
}

/** Starts the app on `dir`; resolves when GET /ready first answers 200 (polled from the moment the port is open). */
async function startUntilReady(dir: string, timeoutSeconds: number): Promise<StartTiming & { server: Server }> {
  const start = now();
  let listeningSeconds = NaN;
  let childListeningUptime = NaN;
  let readyAt: Promise<number> | null = null;
  const poll = async (url: string): Promise<number> => {
    const deadline = Date.now() + timeoutSeconds * 1000;
    for (;;) {
      try {
        const response = await fetch(`${url}/ready`);
        await response.arrayBuffer();
        if (response.status === 200) return secondsSince(start);
      } catch {
        // not accepting yet
      }
      if (Date.now() > deadline) throw new Error(`GET /ready not 200 within ${timeoutSeconds} s`);
      await sleep(5);
    }
  };
  const server = await startServer(
    dir,
    {},
    {
      childEnv: { BENCH_READY_TIMEOUT_MS: String(timeoutSeconds * 1000) },
      onListening: (url, uptime) => {
        listeningSeconds = secondsSince(start);
        childListeningUptime = uptime;
        readyAt = poll(url);
      },
    },
  );
  const seconds = readyAt ? await readyAt : secondsSince(start);
  return { server, seconds, listeningSeconds, childListeningUptime };
}

/**
 * The account log of section 2's generator written straight into the event
 * store's file: SqliteEventStore creates its schema, then one connection of
 * our own inserts the rows exactly as its append would (same columns, JSON,
 * revisions per stream, positions in order), `batch` rows per transaction,
 * with synchronous=OFF and a large page cache. A fixture, not an append path:
 * through append() (one savepoint per event, fsync per commit, the 2 MB
 * default cache against a random-keyed event_id index) a million events take
 * minutes.
 */
async function writeLogFixture(file: string, total: number, batch: number): Promise<{ events: number; streams: number }> {
  await new SqliteEventStore({ file }).close();
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const insert = db.prepare(
      'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const revisions = new Map<string, number>();
    const bar = progress('write account log', total, 'events');
    let rows: [string, number, string, string, string, string][] = [];
    let events = 0;
    const commit = db.transaction((chunk: typeof rows, recordedAt: string) => {
      for (const [streamId, revision, eventId, type, data, metadata] of chunk) insert.run(streamId, revision, eventId, type, data, metadata, recordedAt);
    });
    for (const { streamId, event } of generateEvents(total)) {
      const revision = (revisions.get(streamId) ?? -1) + 1;
      revisions.set(streamId, revision);
      rows.push([streamId, revision, event.metadata.eventId, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata)]);
      events++;
      if (rows.length >= batch) {
        commit(rows, new Date().toISOString());
        rows = [];
        bar.update(events);
      }
    }
    if (rows.length > 0) commit(rows, new Date().toISOString());
    bar.stop();
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { events, streams: revisions.size };
  } finally {
    db.close();
  }
}

async function runReady(options: PerfCoreOptions): Promise<ReadyPart> {
  log(`  D. GET /ready after a restart with ${int(options.readyEvents)} events in the log`);
  const dir = makeTempDir('core-ready');
  try {
    const genStart = now();
    const generated = await writeLogFixture(join(dir, 'events.db'), options.readyEvents, options.readyWriteBatch);
    const generateSeconds = secondsSince(genStart);
    log(
      `    log: ${int(generated.events)} account events (section 2's generator) on ${int(generated.streams)} streams, written in ${fixed(generateSeconds, 1)} s ` +
        `(a fixture: rows inserted straight into the event store's table, ${int(options.readyWriteBatch)} per transaction); ${formatSizes(fileSizes(dir, DATA_FILES))}`,
    );

    const first = await startUntilReady(dir, options.readyTimeoutSeconds);
    await first.server.stop();
    log(
      `    first start (every projection catches up from 0): /ready 200 after ${fixed(first.seconds, 2)} s = ` +
        `${int(generated.events / first.seconds)} events/s (port open at ${fixed(first.listeningSeconds, 2)} s); context`,
    );
    const afterFirst = fileSizes(dir, DATA_FILES);
    log(`    files after the first start and stop: ${formatSizes(afterFirst)}`);

    // restarts on the log and starts on an empty DATA_DIR, alternated; the medians are the figures
    const restarts: StartTiming[] = [];
    const empties: StartTiming[] = [];
    for (let i = 0; i < options.restarts; i++) {
      const restart = await startUntilReady(dir, options.readyTimeoutSeconds);
      await restart.server.stop();
      restarts.push(restart);
      const emptyDir = makeTempDir('core-empty');
      try {
        const empty = await startUntilReady(emptyDir, options.readyTimeoutSeconds);
        await empty.server.stop();
        empties.push(empty);
      } finally {
        removeTempDir(emptyDir);
      }
    }
    const restart = medianStart(restarts);
    const empty = medianStart(empties);
    const list = (xs: StartTiming[]) => xs.map((x) => fixed(x.seconds, 2)).join(', ');
    log(
      `    restart: /ready 200 after ${fixed(restart.seconds, 2)} s from fork, median of ${restarts.length} (${list(restarts)} s) (bar < 3 s); ` +
        `port open at ${fixed(restart.listeningSeconds, 2)} s (the child's uptime then: ${fixed(restart.childListeningUptime, 2)} s)`,
    );
    log(`    context: the same start on an empty DATA_DIR: /ready 200 after ${fixed(empty.seconds, 2)} s, median (${list(empties)} s)`);
    const files = fileSizes(dir, DATA_FILES);
    const reads = new EmbeddedReadStore({ file: join(dir, 'read-models.db') });
    let accounts: number | null = null;
    try {
      accounts = await reads.collection(USERS).countDocuments({});
    } finally {
      await reads.close();
    }
    return {
      events: generated.events,
      accounts,
      generateSeconds,
      firstStart: { seconds: first.seconds, listeningSeconds: first.listeningSeconds },
      emptyStart: { seconds: empty.seconds, listeningSeconds: empty.listeningSeconds },
      restart: { seconds: restart.seconds, listeningSeconds: restart.listeningSeconds, childListeningUptime: restart.childListeningUptime },
      restarts: restarts.map((r) => r.seconds),
      files,
    };
  } finally {
    removeTempDir(dir);
  }
}

// ---------------------------------------------------------------- E

/** `users` documents of a rebuild of a small account log: the shapes the memory figure is measured with. */
async function userTemplates(dir: string, events: number): Promise<{ docs: Doc[]; position: number }> {
  const store = new SqliteEventStore({ file: join(dir, 'template-events.db') });
  const reads = new EmbeddedReadStore({ file: null });
  try {
    await generate(store, events, 1000);
    const engine = new ProjectionEngine(store, reads, { all: () => ALL_PROJECTIONS });
    const rebuilt = await engine.rebuild([usersProjection]);
    return { docs: await reads.collection(USERS).find({}), position: rebuilt.position };
  } finally {
    await reads.close();
    await store.close();
  }
}

/** A distinct copy of a template: fresh id, username, e-mail (and hashes where there are some). */
function cloneUser(template: Doc, i: number): Doc {
  const suffix = i.toString(36).padStart(6, '0');
  const id = randomUUID();
  const doc: Doc = { ...template, _id: id, id };
  if (typeof template.username === 'string') {
    doc.username = `${template.username.slice(0, 20)}_${suffix}`;
    doc.username_key = (doc.username as string).toLowerCase();
  }
  if (typeof template.email === 'string') doc.email = `${doc.username as string}@example.com`;
  if (typeof template.recovery_code_hash === 'string') doc.recovery_code_hash = `${template.recovery_code_hash.slice(0, 52)}${suffix}`;
  if (typeof template.device_id === 'string') doc.device_id = `device-${randomUUID()}`;
  return doc;
}

/** A read-model file holding `count` users documents, with the projection's indexes and checkpoint, as the app leaves it. */
function writeUsersFile(file: string, templates: Doc[], count: number, position: number): void {
  const target = new SqliteReadStoreFile(file);
  try {
    const chunk = 20_000;
    for (let from = 0; from < count; from += chunk) {
      const documents = [];
      for (let i = from; i < Math.min(count, from + chunk); i++) {
        const doc = cloneUser(templates[i % templates.length], i);
        documents.push({ collection: USERS, id: doc._id, json: JSON.stringify(doc) });
      }
      target.write({
        droppedCollections: [],
        documents,
        indexes: from === 0 ? [{ collection: USERS, specs: (usersProjection.indexes ?? []).map(({ spec }) => ({ ...spec, name: spec.name ?? defaultIndexName(spec.keys) })) }] : [],
        checkpoints: from === 0 ? [{ name: usersProjection.name, position }] : [],
      });
    }
  } finally {
    target.close();
  }
}

function probe(file: string): Promise<Extract<MemoryMessage, { type: 'memory' }>> {
  const child = fork(join(__dirname, 'memory-probe.js'), [file, USERS], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let result: Extract<MemoryMessage, { type: 'memory' }> | null = null;
    child.on('message', (message: MemoryMessage) => {
      if (message.type === 'memory') result = message;
      else reject(new Error(`memory probe failed: ${message.message}`));
    });
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`memory probe exited (code ${code}) without a reading`))));
  });
}

async function runMemory(options: PerfCoreOptions): Promise<MemoryPart> {
  const [small, large] = options.memoryDocs;
  log(`  E. resident memory of an EmbeddedReadStore holding ${int(small)} and ${int(large)} users documents (a fresh process each)`);
  const dir = makeTempDir('core-memory');
  try {
    const { docs: templates, position } = await userTemplates(dir, options.memoryTemplateEvents);
    if (templates.length === 0) throw new Error('the template rebuild produced no users document');
    const sizes: MemorySize[] = [];
    for (const count of [small, large]) {
      const file = join(dir, `users-${count}.db`);
      writeUsersFile(file, templates, count, position);
      const reading = await probe(file);
      if (reading.documents !== count) throw new Error(`expected ${count} documents in the probe, found ${reading.documents}`);
      const size: MemorySize = {
        documents: count,
        fileBytes: fileSizes(dir, [`users-${count}.db`, `users-${count}.db-wal`]).reduce((s, f) => s + f.bytes, 0),
        loadSeconds: reading.loadSeconds,
        baselineRssMb: reading.before.rss / MB,
        rssMb: reading.after.rss / MB,
        heapUsedMb: reading.after.heapUsed / MB,
      };
      sizes.push(size);
      log(
        `    ${int(count).padStart(9)} documents: RSS ${fixed(size.rssMb, 1)} MB (${fixed(size.baselineRssMb, 1)} MB before opening), ` +
          `heap used ${fixed(size.heapUsedMb, 1)} MB; file ${fixed(size.fileBytes / MB, 1)} MB, loaded in ${fixed(size.loadSeconds, 2)} s`,
      );
    }
    const per100k = (a: number, b: number) => (b - a) / ((large - small) / 100_000);
    const rssMbPer100k = per100k(sizes[0].rssMb, sizes[1].rssMb);
    const heapMbPer100k = per100k(sizes[0].heapUsedMb, sizes[1].heapUsedMb);
    log(
      `    slope: ${fixed(rssMbPer100k, 1)} MB RSS (${fixed(heapMbPer100k, 1)} MB heap) per 100,000 users documents ` +
        `(shapes of ${int(templates.length)} documents rebuilt from ${int(options.memoryTemplateEvents)} account events, with the projection's 3 indexes)`,
    );
    return { sizes, rssMbPer100k, heapMbPer100k, templates: templates.length };
  } finally {
    removeTempDir(dir);
  }
}

// ---------------------------------------------------------------- section

export async function runPerfCoreBench(options: PerfCoreOptions): Promise<PerfCoreResult> {
  heading('8. Performance core (issue 12 bars: yardstick route, projections, state, restart, memory)');
  const start = now();
  // BENCH_CORE_PARTS=http,commands,ready,memory (default all) runs some parts only
  const wanted = new Set((process.env.BENCH_CORE_PARTS ?? 'http,commands,ready,memory').split(',').map((p) => p.trim()));
  const only = <T>(name: string, label: string, run: () => Promise<T>) =>
    wanted.has(name) ? part(label, run) : Promise.resolve({ skipped: `not in BENCH_CORE_PARTS` });
  const http = await only('http', '8A/B', () => runHttp(options));
  log();
  const commands = await only('commands', '8C', () => runCommands(options));
  log();
  const ready = await only('ready', '8D', () => runReady(options));
  log();
  const memory = await only('memory', '8E', () => runMemory(options));
  const seconds = secondsSince(start);
  log(`  section 8 took ${fixed(seconds, 1)} s`);
  return { http, commands, ready, memory, seconds };
}
