/**
 * Section 6B: scoring events through the contest scoring saga, end to end.
 *
 * The real app (createApp + loadConfig, embedded defaults, temp DATA_DIR) runs
 * in this process on 127.0.0.1:0. An admin and `users` users register over
 * HTTP. Then `events` ScoringEventReported events, exactly as the handler of
 * POST /api/hive/contest/events records them (stream
 * `scoringEvent-<type>:<source>`, expected no_stream, the decider's data, the
 * executor's metadata), are appended straight to the app's EVENT_STORE,
 * `appendBatch` appends per tick (one group commit each), while the SagaRunner
 * is stopped: a backlog. Then the runner starts and hands them to
 * ContestScoringSaga, which turns each into an AwardSpark; AwardSparkHandler
 * appends a SparkAwarded to `wallet-<user>` (the executor groups the awards
 * of one wallet). Timed from the runner's start until every award is in the
 * store (readAll polled) → awards/s; then until the contestLeaderboard
 * projection has applied them.
 *
 * Yardstick: the same number of SparkAwarded events appended directly to the
 * same wallet streams (what the saga ends up writing), same batching, exact
 * expected revisions, same running app.
 *
 * HTTP path: autocannon (in this process, like the app) on POST
 * /api/hive/contest/events with an admin token, unique sources, vs GET
 * /health on the same app.
 */
import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import autocannon from 'autocannon';
import { SCORE_WEIGHTS, SCORING_EVENT_TYPES, type ScoringEventType, TRACKS, type TrackPoints } from '../src/aggregates/contest/scoring';
import { type ScoringEventReportedData, scoringEventStreamId } from '../src/aggregates/contest/scoring-event';
import { type WalletEvent, walletStreamId } from '../src/aggregates/contest/wallet';
import { createApp } from '../src/app.factory';
import { type AppConfig, loadConfig } from '../src/config/config';
import {
  type AppendResult,
  EVENT_STORE,
  type EventStore,
  type JsonObject,
  NO_STREAM,
  type NewEvent,
  WrongExpectedRevisionError,
} from '../src/infrastructure/event-store/event-store.port';
import { UpcasterRegistry } from '../src/infrastructure/eventsourcing/upcasters';
import { PlatformLifecycle } from '../src/infrastructure/platform-lifecycle';
import { ProjectionEngine } from '../src/infrastructure/projections/projection-engine';
import { SagaRunner } from '../src/infrastructure/sagas/saga-runner';
import { contestLeaderboardProjection } from '../src/projections/contest/contest-leaderboard.projection';
import { fixed, int, log, makeTempDir, now, progress, ratio, removeTempDir, secondsSince, sleep, timedProgress } from './util';

export interface ContestSagaOptions {
  /** users registered over HTTP, who receive the awards */
  users: number;
  /** ScoringEventReported events appended (each earns one award) */
  events: number;
  /** appends issued per tick (one group commit each) */
  appendBatch: number;
  /** give up waiting for the saga after this long without a new award */
  stallSeconds: number;
  /** autocannon duration of POST /api/hive/contest/events; 0 skips the HTTP path */
  httpSeconds: number;
  /** autocannon duration of GET /health (the HTTP yardstick) */
  healthSeconds: number;
  connections: number;
}

export interface Rate {
  count: number;
  seconds: number;
  perSecond: number;
}

export interface HttpFigure {
  requestsPerSecond: number;
  total: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
}

export interface ContestSagaResult {
  users: number;
  appendReports: Rate;
  /** first append → last SparkAwarded recorded */
  saga: Rate & { complete: boolean; expected: number; retriedBatches: number; walletConflicts: number };
  /** first append → contestLeaderboard projection at the last award's position (null: not reached) */
  projectedSeconds: number | null;
  direct: Rate;
  http: { health: HttpFigure; report: HttpFigure; awardsRecorded: number; reportsAccepted: number } | { skipped: string };
}

const ADMIN = 'benchadmin';
const PASSWORD = 'bench-Password-1234';
const JSON_HEADERS = { 'content-type': 'application/json' };

async function waitUntil(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs} ms`);
    await sleep(10);
  }
}

async function register(url: string, username: string): Promise<{ id: string; token: string }> {
  const response = await fetch(`${url}/api/social/register`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ username, email: `${username}@example.com`, password: PASSWORD }),
  });
  const body = (await response.json()) as { data?: { id?: string; token?: string } };
  if (response.status !== 201 || !body.data?.id || !body.data.token) {
    throw new Error(`register ${username}: HTTP ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
  }
  return { id: body.data.id, token: body.data.token };
}

/** Counts SparkAwarded events recorded after `after`, incrementally (the cursor only moves forward). */
class AwardCounter {
  count = 0;
  lastPosition = 0;
  constructor(
    private readonly store: EventStore,
    private after: number,
  ) {}

  async poll(): Promise<number> {
    for (;;) {
      const page = await this.store.readAll({ after: this.after, maxCount: 2000 });
      if (page.length === 0) return this.count;
      for (const e of page) {
        if (e.type === 'SparkAwarded') {
          this.count++;
          this.lastPosition = e.position;
        }
      }
      this.after = page[page.length - 1].position;
    }
  }
}

/**
 * Counts appends to streams starting with `prefix` that fail with WrongExpectedRevisionError,
 * by shadowing the store instance's append (results and errors pass through unchanged) until stop().
 */
function countConflicts(store: EventStore, prefix: string): { stop(): number } {
  let conflicts = 0;
  const original = store.append;
  const counting: EventStore['append'] = (streamId, events, expected) => {
    const result = original.call(store, streamId, events, expected);
    if (streamId.startsWith(prefix)) {
      result.catch((error: unknown) => {
        if (error instanceof WrongExpectedRevisionError) conflicts++;
      });
    }
    return result;
  };
  Object.defineProperty(store, 'append', { value: counting, configurable: true, writable: true });
  return {
    stop() {
      delete (store as { append?: unknown }).append;
      if (store.append !== original) Object.defineProperty(store, 'append', { value: original, configurable: true, writable: true });
      return conflicts;
    },
  };
}

/** Issues `count` appends, `batch` per tick, each awaited per batch. */
async function appendInBatches(count: number, batch: number, append: (i: number) => Promise<AppendResult>): Promise<void> {
  for (let i = 0; i < count; i += batch) {
    const pending: Promise<AppendResult>[] = [];
    for (let j = i; j < Math.min(count, i + batch); j++) pending.push(append(j));
    await Promise.all(pending);
  }
}

function cannonFigure(result: autocannon.Result): HttpFigure {
  return {
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

async function cannon(label: string, options: autocannon.Options, seconds: number): Promise<autocannon.Result> {
  const bar = timedProgress(label, seconds);
  try {
    return await autocannon({ ...options, duration: seconds });
  } finally {
    bar.stop();
  }
}

export async function runContestSaga(options: ContestSagaOptions): Promise<ContestSagaResult> {
  log(`  B. scoring events → ContestScoringSaga → SparkAwarded (real app in this process, SQLite event store, embedded read store)`);
  const dataDir = makeTempDir('contest-saga');
  let app: NestFastifyApplication | null = null;
  try {
    const config: AppConfig = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SVC_ADMIN_USERS: ADMIN,
      PASSWORD_HASH_MEMORY_KIB: '4096',
    });
    const startedAt = now();
    app = await createApp(config);
    await app.listen(0, '127.0.0.1');
    const running = app;
    const address = running.getHttpServer().address() as { port: number };
    const url = `http://127.0.0.1:${address.port}`;
    await waitUntil(() => running.get(PlatformLifecycle).isReady(), 15_000, 'app ready');
    const store = running.get<symbol, EventStore>(EVENT_STORE);
    const upcasters = running.get(UpcasterRegistry);
    const projections = running.get(ProjectionEngine);
    const sagas = running.get(SagaRunner);
    const failedBefore = sagas.status().failedBatches;
    log(`    app ready at ${url} in ${fixed(secondsSince(startedAt), 2)} s (DATA_DIR ${dataDir})`);

    // an admin and the players, over HTTP (argon2id at PASSWORD_HASH_MEMORY_KIB=4096)
    const regStart = now();
    const admin = await register(url, ADMIN);
    const prefix = `s${randomUUID().slice(0, 6)}`;
    const players: string[] = [];
    const bar = progress('register players', options.users, 'users');
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < options.users) {
          const i = next++;
          players.push((await register(url, `${prefix}_${i}`)).id);
          bar.update(players.length);
        }
      }),
    );
    bar.stop();
    if (players.length === 0) throw new Error('no player registered');
    log(`    registered 1 admin + ${int(players.length)} players over HTTP in ${fixed(secondsSince(regStart), 2)} s`);

    // ScoringEventReported as ReportScoringEventHandler records it
    const scoringTypes = SCORING_EVENT_TYPES;
    const report = (i: number, sourcePrefix: string): { streamId: string; event: NewEvent } => {
      const eventType: ScoringEventType = scoringTypes[i % scoringTypes.length];
      const sourceId = `${sourcePrefix}-${i}`;
      const at = new Date().toISOString();
      const data: ScoringEventReportedData = {
        event_type: eventType,
        source_id: sourceId,
        user_id: players[i % players.length],
        attested: true,
        success_rate: eventType === 'robot_episode_success' ? 0.9 : null,
        occurred_at: at,
        reported_by: admin.id,
        reported_at: at,
      };
      return {
        streamId: scoringEventStreamId(eventType, sourceId),
        event: {
          type: 'ScoringEventReported',
          data: data as unknown as JsonObject,
          metadata: {
            eventId: randomUUID(),
            correlationId: randomUUID(),
            causationId: null,
            actor: admin.id,
            nodeId: config.nodeId,
            occurredAt: at,
            schemaVersion: upcasters.currentVersion('ScoringEventReported'),
          },
        },
      };
    };

    // the saga run; wallet appends refused for a stale revision are counted (each costs the handler a re-read and a retry)
    const conflicts = countConflicts(store, 'wallet-');
    const counter = new AwardCounter(store, await store.headPosition());
    const sagaBar = progress('saga awards', options.events, 'awards');
    // a backlog: the scoring events are recorded with the saga runner stopped,
    // then it starts and works through them; timed from its start to the last award
    await sagas.stop();
    const appendStart = now();
    const sourcePrefix = `bench${randomUUID().slice(0, 8)}`;
    await appendInBatches(options.events, options.appendBatch, (i) => {
      const { streamId, event } = report(i, sourcePrefix);
      return store.append(streamId, [event], NO_STREAM);
    });
    const appendSeconds = secondsSince(appendStart);
    const sagaStart = now();
    await sagas.start();
    let lastProgress = now();
    let seen = 0;
    for (;;) {
      const count = await counter.poll();
      sagaBar.update(count);
      if (count >= options.events) break;
      if (count > seen) {
        seen = count;
        lastProgress = now();
      } else if (secondsSince(lastProgress) > options.stallSeconds) {
        break;
      }
      await sleep(5);
    }
    const sagaSeconds = secondsSince(sagaStart);
    sagaBar.stop();
    const walletConflicts = conflicts.stop();
    const retriedBatches = sagas.status().failedBatches - failedBefore;
    const complete = counter.count >= options.events;
    let projectedSeconds: number | null = null;
    if (counter.lastPosition > 0 && (await projections.waitFor([contestLeaderboardProjection.name], counter.lastPosition, 30_000))) {
      projectedSeconds = secondsSince(sagaStart);
    }
    const saga = {
      count: counter.count,
      seconds: sagaSeconds,
      perSecond: counter.count / sagaSeconds,
      complete,
      expected: options.events,
      retriedBatches,
      walletConflicts,
    };
    log(
      `    ${int(options.events)} ScoringEventReported appended (${int(options.appendBatch)} per group commit) in ${fixed(appendSeconds, 2)} s ` +
        `= ${int(options.events / appendSeconds)} events/s, spread over ${int(players.length)} players' wallets`,
    );
    log(
      `    saga: ${int(saga.count)} of ${int(options.events)} SparkAwarded recorded ${fixed(sagaSeconds, 2)} s after the saga runner started on the backlog ` +
        `= ${int(saga.perSecond)} awards/s${complete ? '' : ` (! incomplete: no new award for ${options.stallSeconds} s)`}` +
        (retriedBatches ? `; ! ${int(retriedBatches)} saga batches failed and were retried` : '; no saga batch failed'),
    );
    log(
      `    wallet appends refused for a stale revision meanwhile: ${int(walletConflicts)} (${fixed(walletConflicts / Math.max(1, saga.count), 1)} per award; ` +
        `each is a re-read of the wallet stream and a retry in CommandExecutor)`,
    );
    if (projectedSeconds !== null) log(`    contestLeaderboard projection had applied them all ${fixed(projectedSeconds, 2)} s after the saga runner started`);
    else if (counter.lastPosition > 0) log('    ! contestLeaderboard did not reach the last award within 30 s');

    // yardstick: the same number of SparkAwarded appended straight to the same wallets
    const revisions = new Map<string, number>();
    for (const id of players) {
      const [last] = await store.readStream(walletStreamId(id), { direction: 'backwards', maxCount: 1 });
      revisions.set(id, last ? last.revision : -1);
    }
    const directPrefix = `direct${randomUUID().slice(0, 8)}`;
    const directStart = now();
    await appendInBatches(options.events, options.appendBatch, (i) => {
      const eventType: ScoringEventType = scoringTypes[i % scoringTypes.length];
      const userId = players[i % players.length];
      const tracks: TrackPoints = {};
      let amount = 0;
      for (const track of TRACKS) {
        const points = SCORE_WEIGHTS[eventType][track];
        if (points) {
          tracks[track] = points;
          amount += points;
        }
      }
      const at = new Date().toISOString();
      const award: WalletEvent = {
        type: 'SparkAwarded',
        data: { user_id: userId, amount, tracks, source_type: eventType, source_id: `${directPrefix}-${i}`, reason: eventType, awarded_at: at },
      };
      const revision = revisions.get(userId)!;
      revisions.set(userId, revision + 1);
      return store.append(
        walletStreamId(userId),
        [
          {
            type: award.type,
            data: award.data as unknown as JsonObject,
            metadata: {
              eventId: randomUUID(),
              correlationId: randomUUID(),
              causationId: null,
              actor: 'system:contest-scoring',
              nodeId: config.nodeId,
              occurredAt: at,
              schemaVersion: upcasters.currentVersion('SparkAwarded'),
            },
          },
        ],
        revision < 0 ? NO_STREAM : revision,
      );
    });
    const directSeconds = secondsSince(directStart);
    const direct = { count: options.events, seconds: directSeconds, perSecond: options.events / directSeconds };
    log(
      `    yardstick: ${int(options.events)} SparkAwarded appended directly to the same wallet streams (${int(options.appendBatch)} per group commit, ` +
        `exact revisions) in ${fixed(directSeconds, 2)} s = ${int(direct.perSecond)} events/s`,
    );
    log(`    ratio saga / direct: ${ratio(saga.perSecond, direct.perSecond)}`);
    // let the projection absorb the yardstick's events before the HTTP runs
    await projections.waitFor([contestLeaderboardProjection.name], await store.headPosition(), 30_000);

    // the HTTP path
    let http: ContestSagaResult['http'] = { skipped: 'BENCH_CONTEST_HTTP_SECONDS=0' };
    if (options.httpSeconds > 0) {
      try {
        const base = { url, connections: options.connections };
        await autocannon({ ...base, url: `${url}/health`, duration: 1 });
        const health = cannonFigure(await cannon('GET /health', { ...base, url: `${url}/health` }, options.healthSeconds));
        const before = await store.headPosition();
        const httpCounter = new AwardCounter(store, before);
        const httpPrefix = `http${randomUUID().slice(0, 8)}`;
        let seq = 0;
        const result = await cannon(
          'POST /api/hive/contest/events',
          {
            ...base,
            requests: [
              {
                method: 'POST',
                path: '/api/hive/contest/events',
                headers: { ...JSON_HEADERS, authorization: `Bearer ${admin.token}` },
                setupRequest: (request) => {
                  const i = seq++;
                  return {
                    ...request,
                    body: JSON.stringify({ event_type: 'agent_adopted', source_id: `${httpPrefix}-${i}`, user_id: players[i % players.length], attested: true }),
                  };
                },
              },
            ],
          },
          options.httpSeconds,
        );
        const reportFigure = cannonFigure(result);
        const accepted = result['2xx'];
        // the saga works behind the requests: how far it got, given a few more seconds
        const drainStart = now();
        while ((await httpCounter.poll()) < accepted && secondsSince(drainStart) < 5) await sleep(20);
        const awardsRecorded = httpCounter.count;
        http = { health, report: reportFigure, awardsRecorded, reportsAccepted: accepted };
        const line = (label: string, f: HttpFigure, seconds: number) =>
          `    ${label.padEnd(32)} ${int(f.requestsPerSecond).padStart(6)} req/s  p50 ${int(f.p50)} ms  p99 ${int(f.p99)} ms  ` +
          `(${int(f.total)} in ${seconds} s; non-2xx ${int(f.non2xx)}, errors ${int(f.errors)})`;
        log(line('GET /health', health, options.healthSeconds));
        log(line('POST /api/hive/contest/events', reportFigure, options.httpSeconds));
        log(
          `    ratio events / health: ${ratio(reportFigure.requestsPerSecond, health.requestsPerSecond)}; ` +
            `awards recorded for the ${int(accepted)} accepted reports: ${int(awardsRecorded)} (${fixed(secondsSince(drainStart), 1)} s after the run)`,
        );
        log(`    note: autocannon runs in the app's process here (${options.connections} connections), for both routes.`);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        http = { skipped: `HTTP path failed: ${reason}` };
        log(`    HTTP path skipped: ${reason}`);
      }
    }

    return {
      users: players.length,
      appendReports: { count: options.events, seconds: appendSeconds, perSecond: options.events / appendSeconds },
      saga,
      projectedSeconds,
      direct,
      http,
    };
  } finally {
    if (app) await app.close().catch(() => undefined);
    removeTempDir(dataDir);
  }
}
