/**
 * `npm run bench`: measures, in one run, figures of the service and a
 * yardstick for each, and prints the ratios (absolute numbers drift from
 * machine to machine and run to run; the ratios are what to compare with
 * the project's performance notes).
 *
 *   1. event-store appends/s (64 concurrent single-event writers, group commit)
 *      vs a bare better-sqlite3 loop, one INSERT per transaction, same durability
 *   2. projection replay events/s (rebuild of `users`) vs readAll pages only
 *   3. HTTP register/s and login/s vs GET /health on the same app
 *   4. projection rebuild into MongoReadStore (on mongo-java-server) vs the bare
 *      driver's insertMany of the same final documents (time vs time), plus the
 *      same rebuild into the file-backed EmbeddedReadStore for context
 *   5. KafkaBus publish msgs/s vs a bare kafkajs producer loop (same broker,
 *      batching and concurrency); KafkaBus consume msgs/s vs a bare kafkajs
 *      consumer doing what the port requires (handler awaited per message in
 *      partition order, offsets committed only after handling), same topic
 *   6. hive contest: leaderboard read latency p50/p99 at 100,000 users
 *      (ContestQueries on the contestLeaderboard read model) vs a naive full
 *      scan; scoring awards/s through ContestScoringSaga in the real app vs
 *      appending the SparkAwarded directly; POST /api/hive/contest/events req/s
 *      vs GET /health
 *   7. encounter + chat in the real app (embedded default): 2 x 200 mutual likes
 *      fired at once (likes/s, p50/p99, matches created = pairs) and POST
 *      /api/social/encounter/sighting req/s; POST /chat req/s on the offline
 *      engine, casual_conv turns and REUSE of saved recipes; all vs GET /health
 *      on the same app
 *   8. performance core (issue 12's bars): POST /api/social/encounter/sighting
 *      vs the yardstick route of the performance notes (bare Fastify, fast-jwt,
 *      a body checked by hand, one durable SQLite append with group commit),
 *      64 connections, req/s and p99; the same with 16 more empty projections
 *      vs without; command latency on a 10,000-event stream vs a new stream
 *      (state cache on, and off for context); GET /ready after a restart with
 *      1,000,000 events in the log; resident memory per 100,000 read-model
 *      documents
 *   9. the OpenAI-compatible API: POST /v1/chat/completions on the offline
 *      engine, plain and streamed, each request on a free-tier API key
 *      (rotating over BENCH_V1_KEYS keys: 100 requests a day each), vs GET
 *      /health on the same app
 *  10. A2A message/send req/s through the JSON-RPC endpoint (offline engine,
 *      REUSE of saved recipes, spread over BENCH_A2A_AGENTS agents) vs GET
 *      /health on the same app
 *  11. social feeds: /feed/all (new, hot), /feed/trending and /feed p50/p99 at
 *      100,000 posts and 10,000 users (ContentQueries on the posts read model)
 *      vs a naive scan and sort of the same data; POST /posts/{id}/upvote and
 *      /downvote req/s vs GET /health on the same app
 *  12. regional replay events/s (a regional node process pulling a central
 *      node process's log over HTTP, appending and checkpointing it, its
 *      projections building alongside) vs reading the same log locally in
 *      pages of the same size; POST /posts at the regional node (through
 *      central's sync queue, answered once replicated) vs at central
 *
 * BENCH_ONLY selects sections: `BENCH_ONLY=7 node dist/bench/run.js` runs
 * section 7 alone, `BENCH_ONLY=3,7` two of them; the summary shows what ran.
 *
 * Sections 4 and 5 run real servers (child JVMs, jars from Maven Central cached
 * in .cache/services); a server that cannot start makes its section print
 * "skipped: <reason>" and the rest of the bench goes on.
 *
 * Sized to finish in about two minutes on a 2-core machine (sections 6 and 7: under a minute each; section 8 about three). Durations and sizes can
 * be tuned with BENCH_* environment variables (see `settings` below).
 * Nothing here asserts on timings: the bench reports, it does not judge.
 */
import 'reflect-metadata';
import { cpus } from 'node:os';
import { isTrack, type Track } from '../src/aggregates/contest/scoring';
import { BARE_CONSUMER_NOTE, BARE_PRODUCER_NOTE, type BusBenchResult, runBusBench } from './bus.bench';
import { isSkipped, part, runContestBench } from './contest.bench';
import { type ContestReadsResult, ms } from './contest-reads.bench';
import { runEncounterChatBench } from './encounter-chat.bench';
import { runA2aBench } from './a2a.bench';
import { runContentFeedsBench } from './content-feeds.bench';
import { runFederationBench } from './federation.bench';
import { runSocialEconomyBench } from './social-economy.bench';
import { runAppendBench } from './event-store.bench';
import { runHttpBench } from './http.bench';
import { MONGO_NOTE, type MongoProjectionBenchResult, runMongoProjectionBench } from './mongo-projection.bench';
import { runOpenAiApiBench } from './openai-api.bench';
import { runPerfCoreBench } from './perf-core.bench';
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
    consumeRounds: envNumber('BENCH_BUS_CONSUME_ROUNDS', 4),
    consumeMessages: envNumber('BENCH_BUS_CONSUME_MESSAGES', 100_000),
  },
  contest: {
    reads: {
      users: envNumber('BENCH_CONTEST_USERS', 100_000),
      awards: envNumber('BENCH_CONTEST_AWARDS', 150_000),
      sampleUsers: envNumber('BENCH_CONTEST_SAMPLE_USERS', 2000),
      writeBatch: 1000,
      pageSize: 2000,
      reads: envNumber('BENCH_CONTEST_READS', 2000),
      readSeconds: envNumber('BENCH_CONTEST_READ_SECONDS', 1),
      track: (isTrack(process.env.BENCH_CONTEST_TRACK) ? process.env.BENCH_CONTEST_TRACK : 'digital') as Track,
      lateRegistrations: envNumber('BENCH_CONTEST_LATE_REGISTRATIONS', 5),
    },
    saga: {
      users: envNumber('BENCH_CONTEST_SAGA_USERS', 200),
      events: envNumber('BENCH_CONTEST_SAGA_EVENTS', 5000),
      appendBatch: envNumber('BENCH_CONTEST_APPEND_BATCH', 250),
      stallSeconds: envNumber('BENCH_CONTEST_STALL_SECONDS', 10),
      // 0 skips the HTTP path
      httpSeconds: process.env.BENCH_CONTEST_HTTP_SECONDS?.trim() === '0' ? 0 : envNumber('BENCH_CONTEST_HTTP_SECONDS', 5),
      healthSeconds: envNumber('BENCH_CONTEST_HEALTH_SECONDS', 2),
      connections: envNumber('BENCH_CONTEST_CONNECTIONS', 32),
    },
  },
  encounterChat: {
    pairs: envNumber('BENCH_ENCOUNTER_PAIRS', 200),
    connections: envNumber('BENCH_CONNECTIONS', 64),
    healthSeconds: envNumber('BENCH_FLOW_HEALTH_SECONDS', 3),
    sightingSeconds: envNumber('BENCH_SIGHTING_SECONDS', 5),
    chatSeconds: envNumber('BENCH_CHAT_SECONDS', 5),
    conversations: envNumber('BENCH_CHAT_CONVERSATIONS', 500),
    chatUsers: envNumber('BENCH_CHAT_USERS', 100),
  },
  openAiApi: {
    connections: envNumber('BENCH_CONNECTIONS', 64),
    healthSeconds: envNumber('BENCH_V1_HEALTH_SECONDS', 3),
    seconds: envNumber('BENCH_V1_SECONDS', 5),
    keys: envNumber('BENCH_V1_KEYS', 400),
  },
  contentFeeds: {
    posts: envNumber('BENCH_FEED_POSTS', 100_000),
    users: envNumber('BENCH_FEED_USERS', 10_000),
    calls: envNumber('BENCH_FEED_CALLS', 300),
    maxSeconds: envNumber('BENCH_FEED_SECONDS', 5),
    voteSeconds: envNumber('BENCH_VOTE_SECONDS', 5),
    voters: envNumber('BENCH_VOTE_VOTERS', 200),
    votePosts: envNumber('BENCH_VOTE_POSTS', 50),
    connections: envNumber('BENCH_VOTE_CONNECTIONS', 64),
  },
  federation: {
    events: envNumber('BENCH_FEDERATION_EVENTS', 20_000),
    pageSize: envNumber('BENCH_FEDERATION_PAGE_SIZE', 500),
    writeSeconds: envNumber('BENCH_FEDERATION_WRITE_SECONDS', 5),
    writeConnections: envNumber('BENCH_FEDERATION_WRITE_CONNECTIONS', 8),
  },
  economy: {
    geoUsers: envNumber('BENCH_GEO_USERS', 10_000),
    calls: envNumber('BENCH_GEO_CALLS', 300),
    maxSeconds: envNumber('BENCH_GEO_SECONDS', 5),
    appUsers: envNumber('BENCH_ECONOMY_APP_USERS', 10_000),
    seconds: envNumber('BENCH_ECONOMY_SECONDS', 5),
    connections: envNumber('BENCH_CONNECTIONS', 64),
  },
  a2a: {
    agents: envNumber('BENCH_A2A_AGENTS', 32),
    connections: envNumber('BENCH_CONNECTIONS', 64),
    healthSeconds: envNumber('BENCH_A2A_HEALTH_SECONDS', 3),
    seconds: envNumber('BENCH_A2A_SECONDS', 5),
  },
  core: {
    connections: envNumber('BENCH_CONNECTIONS', 64),
    seconds: envNumber('BENCH_CORE_SECONDS', 3),
    rounds: envNumber('BENCH_CORE_ROUNDS', 4),
    extraProjections: envNumber('BENCH_CORE_EXTRA_PROJECTIONS', 16),
    streamEvents: envNumber('BENCH_CORE_STREAM_EVENTS', 10_000),
    commands: envNumber('BENCH_CORE_COMMANDS', 2000),
    uncachedCommands: envNumber('BENCH_CORE_UNCACHED_COMMANDS', 200),
    readyEvents: envNumber('BENCH_CORE_READY_EVENTS', 1_000_000),
    readyWriteBatch: envNumber('BENCH_CORE_READY_BATCH', 20_000),
    restarts: envNumber('BENCH_CORE_RESTARTS', 3),
    readyTimeoutSeconds: envNumber('BENCH_CORE_READY_TIMEOUT_SECONDS', 600),
    memoryDocs: [envNumber('BENCH_CORE_MEMORY_SMALL', 100_000), envNumber('BENCH_CORE_MEMORY_LARGE', 300_000)] as [number, number],
    memoryTemplateEvents: envNumber('BENCH_CORE_MEMORY_TEMPLATE_EVENTS', 20_000),
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

/** "3-12": fewest to most timed calls over the read variants. */
function callRange(reads: ContestReadsResult): string {
  const calls = [reads.overall50, reads.overall200, reads.track50, reads.track200, reads.naiveOverall50, reads.naiveTrack50].map((l) => l.calls);
  const [min, max] = [Math.min(...calls), Math.max(...calls)];
  return min === max ? int(min) : `${int(min)}-${int(max)}`;
}

function skippedRow(figure: string, reason: string): string[] {
  const short = reason.length > 60 ? `${reason.slice(0, 57)}...` : reason;
  return [figure, 'skipped', short, '', 'n/a'];
}

const SECTIONS = 13;

/** BENCH_ONLY: the sections to run ("7", "3,7"); unset or empty runs them all. */
function selectedSections(raw: string | undefined): Set<number> | null {
  if (raw === undefined || raw.trim() === '') return null;
  const sections = raw.split(/[\s,]+/).filter(Boolean);
  const numbers = sections.map(Number);
  const bad = sections.filter((_, i) => !Number.isInteger(numbers[i]) || numbers[i] < 1 || numbers[i] > SECTIONS);
  if (bad.length) throw new Error(`BENCH_ONLY: expected section numbers 1-${SECTIONS} separated by commas, got '${raw}'`);
  return new Set(numbers);
}

async function main(): Promise<void> {
  const started = now();
  const cpu = cpus();
  const only = selectedSections(process.env.BENCH_ONLY);
  const run = <T>(section: number, bench: () => Promise<T>): Promise<T | null> => (only === null || only.has(section) ? bench() : Promise.resolve(null));
  log(`bench: node ${process.version}, ${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${process.platform}/${process.arch}`);
  if (only) log(`bench: sections ${[...only].sort((a, b) => a - b).join(', ')} only (BENCH_ONLY)`);

  const appends = await run(1, () => runAppendBench(settings.appends));
  const replay = await run(2, () => runReplayBench(settings.replay));
  const http = await run(3, () => runHttpBench(settings.http));
  const mongo: MongoProjectionBenchResult | { skipped: string } | null = await run(4, () =>
    orFailed('section 4', () => runMongoProjectionBench(settings.mongo)),
  );
  const bus: BusBenchResult | { skipped: string } | null = await run(5, () => orFailed('section 5', () => runBusBench(settings.bus)));
  // section 6 catches its own failures (per part) and never fails the run
  const contest = await run(6, () => runContestBench(settings.contest));
  // section 7 likewise, per part; an app that cannot start skips the whole section
  const flows = await run(7, () => part('section 7', () => runEncounterChatBench(settings.encounterChat)));
  // section 8 likewise, per part
  const core = await run(8, () => runPerfCoreBench(settings.core));
  // sections 9 and 10 likewise, per part; an app that cannot start, or a failed setup, skips the section
  const v1 = await run(9, () => part('section 9', () => runOpenAiApiBench(settings.openAiApi)));
  const a2a = await run(10, () => part('section 10', () => runA2aBench(settings.a2a)));
  const content = await run(11, () => part('section 11', () => runContentFeedsBench(settings.contentFeeds)));
  const federation = await run(12, () => orFailed('section 12', () => runFederationBench(settings.federation)));
  // section 13 like 11: an app that cannot start, or a failed setup, skips it
  const economy = await run(13, () => part('section 13', () => runSocialEconomyBench(settings.economy)));

  heading('Summary');
  const rows: string[][] = [];
  if (appends) {
    rows.push(
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
    );
  }
  if (replay) {
    rows.push([
      `projection replay (users, ${int(replay.events)} ev)`,
      `${int(replay.rebuild.eventsPerSecond)} ev/s`,
      'readAll pages only',
      `${int(replay.readAll.eventsPerSecond)} ev/s`,
      ratio(replay.rebuild.eventsPerSecond, replay.readAll.eventsPerSecond),
    ]);
  }
  if (http) {
    rows.push(
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
    );
  }
  if (mongo && mongo.skipped === null) {
    rows.push(
      [
        `projection rebuild → MongoReadStore (${int(mongo.events)} ev)`,
        `${fixed(mongo.mongo.seconds, 2)} s (${int(mongo.mongo.eventsPerSecond)} ev/s)`,
        `bare insertMany of its ${int(mongo.bareInsert.documents)} docs`,
        `${fixed(mongo.bareInsert.seconds, 2)} s`,
        ratio(mongo.bareInsert.seconds, mongo.mongo.seconds),
      ],
      [
        '  context: same rebuild, mongo vs embedded',
        `${int(mongo.mongo.eventsPerSecond)} ev/s`,
        'same → EmbeddedReadStore',
        `${int(mongo.embedded.eventsPerSecond)} ev/s`,
        ratio(mongo.mongo.eventsPerSecond, mongo.embedded.eventsPerSecond),
      ],
    );
  } else if (mongo) {
    rows.push(skippedRow('projection rebuild → MongoReadStore', mongo.skipped));
  }
  if (bus && bus.skipped === null) {
    rows.push(
      [
        `KafkaBus.publish (${settings.bus.publishers} x batches of ${settings.bus.batchSize})`,
        `${int(bus.busPublish.messagesPerSecond)} msg/s`,
        'bare kafkajs producer.send',
        `${int(bus.barePublish.messagesPerSecond)} msg/s`,
        ratio(bus.busPublish.messagesPerSecond, bus.barePublish.messagesPerSecond),
      ],
      [
        `KafkaBus consume (${bus.busConsume.rounds.length} x ${int(bus.consumeMessages)} msgs, handler awaited)` +
          (bus.busConsume.complete ? '' : ' [capped]'),
        `${int(bus.busConsume.messagesPerSecond)} msg/s`,
        bus.bareConsume ? 'bare kafkajs eachMessage, commit after' : 'bare consumer failed',
        bus.bareConsume ? `${int(bus.bareConsume.messagesPerSecond)} msg/s` + (bus.bareConsume.complete ? '' : ' [capped]') : '',
        bus.bareConsume ? ratio(bus.busConsume.messagesPerSecond, bus.bareConsume.messagesPerSecond) : 'n/a',
      ],
    );
  } else if (bus) {
    rows.push(skippedRow('KafkaBus.publish', bus.skipped));
  }
  const latency = (l: { p50: number; p99: number }) => `${ms(l.p50)} / ${ms(l.p99)} ms`;
  if (contest) {
    const { reads, saga } = contest;
    if (!isSkipped(reads)) {
      rows.push(
        [
          `contest leaderboard overall top 50, p50/p99 (${int(reads.users)} users)`,
          latency(reads.overall50),
          'naive: find all wallets, JS sort',
          latency(reads.naiveOverall50),
          ratio(reads.overall50.p50, reads.naiveOverall50.p50),
        ],
        [
          `contest leaderboard ${settings.contest.reads.track} top 50, p50/p99`,
          latency(reads.track50),
          'naive: find track scores, JS sort',
          latency(reads.naiveTrack50),
          ratio(reads.track50.p50, reads.naiveTrack50.p50),
        ],
        [
          `  context: rebuild contestLeaderboard (${int(reads.sampleEvents)} ev sample)`,
          `${int(reads.rebuild.eventsPerSecond)} ev/s`,
          replay ? 'rebuild users (section 2)' : 'rebuild users (section 2 not run)',
          replay ? `${int(replay.rebuild.eventsPerSecond)} ev/s` : '',
          replay ? ratio(reads.rebuild.eventsPerSecond, replay.rebuild.eventsPerSecond) : 'n/a',
        ],
      );
    } else {
      rows.push(skippedRow('contest leaderboard reads', reads.skipped));
    }
    if (!isSkipped(saga)) {
      rows.push([
        `contest saga: ScoringEventReported → SparkAwarded${saga.saga.complete ? '' : ' [incomplete]'}`,
        `${int(saga.saga.perSecond)} awards/s`,
        'SparkAwarded appended directly',
        `${int(saga.direct.perSecond)} ev/s`,
        ratio(saga.saga.perSecond, saga.direct.perSecond),
      ]);
      if (!isSkipped(saga.http)) {
        rows.push([
          'HTTP POST /api/hive/contest/events',
          `${int(saga.http.report.requestsPerSecond)} req/s`,
          'GET /health (same app, in-process)',
          `${int(saga.http.health.requestsPerSecond)} req/s`,
          ratio(saga.http.report.requestsPerSecond, saga.http.health.requestsPerSecond),
        ]);
      } else {
        rows.push(skippedRow('HTTP POST /api/hive/contest/events', saga.http.skipped));
      }
    } else {
      rows.push(skippedRow('contest saga', saga.skipped));
    }
  }
  if (flows && !isSkipped(flows)) {
    const health = `${int(flows.health.requestsPerSecond)} req/s`;
    const { encounter, chat } = flows;
    if (!isSkipped(encounter)) {
      const exact = encounter.matches === encounter.pairs && encounter.pairsWithSeveralMatches === 0 && encounter.readModelMatches === encounter.pairs;
      rows.push(
        [
          `encounter: ${int(encounter.likes.count)} mutual likes at once${encounter.likes.failed ? ' [failures]' : ''}`,
          `${int(encounter.likes.perSecond)} likes/s`,
          'GET /health',
          health,
          ratio(encounter.likes.perSecond, flows.health.requestsPerSecond),
        ],
        [
          `  context: like latency p50/p99${exact ? '' : ' [! not one match per pair]'}`,
          latency(encounter.likes),
          'matches created / pairs',
          `${int(encounter.matches)} / ${int(encounter.pairs)}`,
          ratio(encounter.matches, encounter.pairs),
        ],
        [
          'HTTP POST /api/social/encounter/sighting',
          `${int(encounter.sighting.requestsPerSecond)} req/s`,
          'GET /health',
          health,
          ratio(encounter.sighting.requestsPerSecond, flows.health.requestsPerSecond),
        ],
      );
    } else {
      rows.push(skippedRow('encounter likes and sightings', encounter.skipped));
    }
    if (!isSkipped(chat)) {
      rows.push(
        [
          'HTTP POST /chat casual_conv (offline engine)',
          `${int(chat.casual.requestsPerSecond)} req/s`,
          'GET /health',
          health,
          ratio(chat.casual.requestsPerSecond, flows.health.requestsPerSecond),
        ],
        [
          'HTTP POST /chat REUSE of a saved recipe',
          `${int(chat.reuse.requestsPerSecond)} req/s`,
          'GET /health',
          health,
          ratio(chat.reuse.requestsPerSecond, flows.health.requestsPerSecond),
        ],
      );
    } else {
      rows.push(skippedRow('POST /chat', chat.skipped));
    }
  } else if (flows) {
    rows.push(skippedRow('encounter likes, POST /chat', flows.skipped));
  }
  if (a2a && !isSkipped(a2a)) {
    rows.push([
      `A2A message/send (${a2a.agents} agents, ${settings.a2a.connections} conn)`,
      `${int(a2a.send.requestsPerSecond)} req/s`,
      'GET /health, same app',
      `${int(a2a.health.requestsPerSecond)} req/s`,
      ratio(a2a.send.requestsPerSecond, a2a.health.requestsPerSecond),
    ]);
  } else if (a2a) {
    rows.push(skippedRow('A2A message/send', a2a.skipped));
  }
  if (content && !isSkipped(content)) {
    for (const feed of content.feeds) {
      rows.push([
        `${feed.name} p99 (${int(content.posts)} posts)`,
        `${ms(feed.indexed.p99)} ms`,
        'naive scan + sort, p99',
        `${ms(feed.naive.p99)} ms`,
        ratio(feed.indexed.p99, feed.naive.p99),
      ]);
    }
    rows.push([
      `post votes (${settings.contentFeeds.voters} voters)`,
      `${int(content.votes.requestsPerSecond)} req/s`,
      'GET /health, same app',
      `${int(content.health.requestsPerSecond)} req/s`,
      ratio(content.votes.requestsPerSecond, content.health.requestsPerSecond),
    ]);
  } else if (content) {
    rows.push(skippedRow('social feeds and votes', content.skipped));
  }
  if (federation && !isSkipped(federation)) {
    rows.push([
      `regional replay (${int(federation.events)} events, two processes)`,
      `${int(federation.replay.eventsPerSecond)} events/s`,
      'readSealed pages, same log, locally',
      `${int(federation.localRead.eventsPerSecond)} events/s`,
      ratio(federation.replay.eventsPerSecond, federation.localRead.eventsPerSecond),
    ]);
    rows.push([
      'POST /posts at the regional node (via central)',
      `${int(federation.writes.regional.requestsPerSecond)} req/s`,
      'POST /posts at central',
      `${int(federation.writes.central.requestsPerSecond)} req/s`,
      ratio(federation.writes.regional.requestsPerSecond, federation.writes.central.requestsPerSecond),
    ]);
  } else if (federation) {
    rows.push(skippedRow('regional replay', federation.skipped));
  }
  if (economy && !isSkipped(economy)) {
    rows.push(
      [
        `nearby 500 m p99 (${int(economy.geoUsers)} users' pings)`,
        `${ms(economy.nearby.indexed.p99)} ms`,
        'naive scan + distance, p99',
        `${ms(economy.nearby.naive.p99)} ms`,
        ratio(economy.nearby.indexed.p99, economy.nearby.naive.p99),
      ],
      [
        `location pings (${int(economy.appUsers)} users)`,
        `${int(economy.pings.requestsPerSecond)} req/s`,
        'GET /health, same app',
        `${int(economy.health.requestsPerSecond)} req/s`,
        ratio(economy.pings.requestsPerSecond, economy.health.requestsPerSecond),
      ],
      [
        'wallet transactions (daily check-in)',
        `${int(economy.checkins.requestsPerSecond)} req/s`,
        'GET /health, same app',
        `${int(economy.health.requestsPerSecond)} req/s`,
        ratio(economy.checkins.requestsPerSecond, economy.health.requestsPerSecond),
      ],
    );
  } else if (economy) {
    rows.push(skippedRow('social economy', economy.skipped));
  }
  if (core) {
    const { http: h, commands: c, ready: r, memory: m } = core;
    if (!isSkipped(h)) {
      rows.push(
        [
          `HTTP POST /encounter/sighting (${settings.core.connections} conn)`,
          `${int(h.sighting.requestsPerSecond)} req/s`,
          'yardstick route (bar >= 0.5)',
          `${int(h.yardstick.requestsPerSecond)} req/s`,
          ratio(h.sighting.requestsPerSecond, h.yardstick.requestsPerSecond),
        ],
        ['  sighting p99', `${ms(h.sighting.p99)} ms`, 'yardstick p99 (bar <= 2x)', `${ms(h.yardstick.p99)} ms`, ratio(h.sighting.p99, h.yardstick.p99)],
        ['  context: sighting p50', `${ms(h.sighting.p50)} ms`, 'yardstick p50', `${ms(h.yardstick.p50)} ms`, ratio(h.sighting.p50, h.yardstick.p50)],
        [
          `sighting with ${settings.core.extraProjections} more (empty) projections`,
          `${int(h.sightingExtra.requestsPerSecond)} req/s`,
          'same app without (bar >= 0.9)',
          `${int(h.sighting.requestsPerSecond)} req/s`,
          ratio(h.sightingExtra.requestsPerSecond, h.sighting.requestsPerSecond),
        ],
      );
    } else {
      rows.push(skippedRow('sighting vs yardstick route', h.skipped));
    }
    if (!isSkipped(c)) {
      const events = int(c.streamEvents);
      rows.push(
        [`command p50, ${events}-event stream`, `${ms(c.on.long.p50)} ms`, 'new stream (bar <= 1.5x)', `${ms(c.on.fresh.p50)} ms`, ratio(c.on.long.p50, c.on.fresh.p50)],
        [`command p99, ${events}-event stream`, `${ms(c.on.long.p99)} ms`, 'new stream (bar <= 1.5x)', `${ms(c.on.fresh.p99)} ms`, ratio(c.on.long.p99, c.on.fresh.p99)],
        [`  context: p50, state cache off`, `${ms(c.off.long.p50)} ms`, 'new stream, cache off', `${ms(c.off.fresh.p50)} ms`, ratio(c.off.long.p50, c.off.fresh.p50)],
        [`  context: p99, state cache off`, `${ms(c.off.long.p99)} ms`, 'new stream, cache off', `${ms(c.off.fresh.p99)} ms`, ratio(c.off.long.p99, c.off.fresh.p99)],
      );
    } else {
      rows.push(skippedRow('command latency, long vs new stream', c.skipped));
    }
    if (!isSkipped(r)) {
      rows.push(
        [`/ready after restart, ${int(r.events)} events (median)`, `${fixed(r.restart.seconds, 2)} s`, 'bar: < 3 s', '3.00 s', ratio(r.restart.seconds, 3)],
        [`  context: start on an empty DATA_DIR`, `${fixed(r.emptyStart.seconds, 2)} s`, '', '', ''],
        [`  context: first start, catch-up from 0`, `${fixed(r.firstStart.seconds, 1)} s`, 'events replayed per second', `${int(r.events / r.firstStart.seconds)} ev/s`, ''],
      );
    } else {
      rows.push(skippedRow('/ready after restart', r.skipped));
    }
    if (!isSkipped(m)) {
      const [a, b] = m.sizes;
      rows.push([
        'RSS per 100,000 read-model documents (users)',
        `${fixed(m.rssMbPer100k, 1)} MB`,
        `RSS at ${int(a.documents / 1000)}k / ${int(b.documents / 1000)}k docs`,
        `${int(a.rssMb)} / ${int(b.rssMb)} MB`,
        'measured',
      ]);
    } else {
      rows.push(skippedRow('RSS per 100,000 read-model documents', m.skipped));
    }
  }
  if (v1 && !isSkipped(v1)) {
    const health = `${int(v1.health.requestsPerSecond)} req/s`;
    for (const [label, run] of [['HTTP POST /v1/chat/completions (offline)', v1.plain], ['  same, stream: true (SSE)', v1.streamed]] as const) {
      if (isSkipped(run)) rows.push(skippedRow(label, run.skipped));
      else rows.push([`${label}${run.non2xx ? ' [non-2xx]' : ''}`, `${int(run.requestsPerSecond)} req/s`, 'GET /health', health, ratio(run.requestsPerSecond, v1.health.requestsPerSecond)]);
    }
  } else if (v1) {
    rows.push(skippedRow('POST /v1/chat/completions', v1.skipped));
  }
  log(table(['figure', 'value', 'yardstick', 'yardstick value', 'ratio'], rows));
  log();
  if (appends) {
    log(
      `  appends: ${int(appends.store.commits)} commits, ${fixed(appends.store.eventsPerCommit, 1)} events/commit` +
        (appends.store.errors ? `, ${int(appends.store.errors)} failed appends` : ''),
    );
  }
  if (http) {
    log(
      `  HTTP latency p50/p99 (ms): health ${int(http.health.p50)}/${int(http.health.p99)}, ` +
        `register ${int(http.register.p50)}/${int(http.register.p99)}, login ${int(http.login.p50)}/${int(http.login.p99)}`,
    );
    log(
      `  HTTP non-2xx: health ${int(http.health.non2xx)}, register ${int(http.register.non2xx)}, login ${int(http.login.non2xx)}` +
        `; errors: ${int(http.health.errors + http.register.errors + http.login.errors)}`,
    );
    log(`  register/login are argon2id-bound (PASSWORD_HASH_MEMORY_KIB=${http.hashMemoryKib}); their ratio to /health is expected to be small.`);
  }
  if (mongo && mongo.skipped === null) {
    log(
      `  mongo: ${MONGO_NOTE}; the ratios are the adapter against that server; rebuild vs insertMany is time against time, ` +
        `t(insertMany) / t(rebuild), ${int(mongo.events)} events replayed into ${int(mongo.bareInsert.documents)} documents` +
        (mongo.differences ? ` (! ${int(mongo.differences)} documents differ from the embedded rebuild)` : '') +
        '.',
    );
  } else if (mongo) {
    log(`  mongo section skipped: ${mongo.skipped}`);
  }
  if (bus && bus.skipped === null) {
    log(`  bus: ${BARE_PRODUCER_NOTE}.`);
    log(`  bus: ${BARE_CONSUMER_NOTE}.`);
    log(
      `  bus consume: rounds of alternating order, a fresh group each; KafkaBus/bare per round ` +
        `${bus.roundRatios.map((r) => r.toFixed(2)).join(', ')}` +
        (bus.busConsume.complete && bus.bareConsume?.complete !== false
          ? ''
          : ` (a round hit BENCH_BUS_CONSUME_SECONDS=${settings.bus.consumeSeconds})`) +
        '. KafkaBus commits handled offsets every 500 messages or 250 ms without holding up the handler, and at the end of each fetch.',
    );
  } else if (bus) {
    log(`  bus section skipped: ${bus.skipped}`);
  }
  if (contest) {
    const { reads, saga } = contest;
    if (!isSkipped(reads)) {
      log(
        `  contest reads: top 200 p50/p99 overall ${latency(reads.overall200)}, ${settings.contest.reads.track} ${latency(reads.track200)}; ` +
          `${callRange(reads)} calls per variant ` +
          `(BENCH_CONTEST_READS / BENCH_CONTEST_READ_SECONDS); sort+limit walks the ordered indexes.`,
      );
      log(
        `  contest read model: ${int(reads.users)} users built by a JS fold checked document by document against ProjectionEngine.rebuild ` +
          `of a ${int(reads.sampleEvents)}-event sample (${reads.rebuild.identical ? 'identical' : '! different'}); ` +
          `a full rebuild at ${int(reads.rebuild.eventsPerSecond)} ev/s would take ~${int((reads.users + Math.max(settings.contest.reads.awards, reads.users)) / reads.rebuild.eventsPerSecond)} s.`,
      );
      if (reads.lateRegistrationMs !== null) {
        log(`  contest: one UserRegistered applied with ${int(reads.users)} wallets present costs ${ms(reads.lateRegistrationMs)} ms (updateMany by user_id through its index).`);
      }
    } else {
      log(`  contest reads skipped: ${reads.skipped}`);
    }
    if (!isSkipped(saga)) {
      log(
        `  contest saga: ${int(saga.saga.count)}/${int(saga.saga.expected)} awards for ${int(saga.users)} players in ${fixed(saga.saga.seconds, 2)} s` +
          (saga.saga.retriedBatches ? `, ! ${int(saga.saga.retriedBatches)} saga batches retried` : ', no saga batch retried') +
          (saga.projectedSeconds === null ? '; ! read model not caught up' : `; read model caught up at ${fixed(saga.projectedSeconds, 2)} s`) +
          '; both rates share the event loop with the running projections.',
      );
      if (!isSkipped(saga.http)) {
        log(
          `  contest HTTP p50/p99 (ms): events ${int(saga.http.report.p50)}/${int(saga.http.report.p99)}, health ${int(saga.http.health.p50)}/${int(saga.http.health.p99)}; ` +
            `non-2xx ${int(saga.http.report.non2xx)}, errors ${int(saga.http.report.errors)}; autocannon in the app's process.`,
        );
      }
    } else {
      log(`  contest saga skipped: ${saga.skipped}`);
    }
    log(`  section 6 time: ${fixed(contest.seconds, 1)} s`);
  }
  if (flows && !isSkipped(flows)) {
    const { encounter, chat, health } = flows;
    if (!isSkipped(encounter)) {
      log(
        `  encounter: ${int(encounter.pairs)} pairs set up over HTTP in ${fixed(encounter.setupSeconds, 1)} s; their ${int(encounter.likes.count)} likes all in flight at once ` +
          `(${fixed(encounter.likes.seconds * 1000, 0)} ms until the last reply), each a conflict-checked append to the pair's stream; ` +
          `matches ${int(encounter.matches)}/${int(encounter.pairs)}, in the read model ${int(encounter.readModelMatches)}` +
          (encounter.likes.failed ? `; ! ${int(encounter.likes.failed)} likes failed` : '') +
          '.',
      );
    }
    const p = (r: { p50: number; p99: number }) => `${int(r.p50)}/${int(r.p99)}`;
    const codes = [`health ${health.statusCodes}`];
    if (!isSkipped(encounter)) codes.push(`sighting ${encounter.sighting.statusCodes}`);
    if (!isSkipped(chat)) codes.push(`casual ${chat.casual.statusCodes}`, `reuse ${chat.reuse.statusCodes}`);
    log(
      `  section 7 HTTP p50/p99 (ms): health ${p(health)}` +
        (isSkipped(encounter) ? '' : `, sighting ${p(encounter.sighting)}`) +
        (isSkipped(chat) ? '' : `, chat casual ${p(chat.casual)}, chat REUSE ${p(chat.reuse)}`) +
        `; status codes: ${codes.join('; ')}.`,
    );
    if (!isSkipped(chat)) {
      log(
        `  chat: ${int(chat.conversations)} conversations over ${int(chat.users)} user ids (BENCH_CHAT_CONVERSATIONS / BENCH_CHAT_USERS); ` +
          `${int(chat.recipesSaved)} recipes saved beforehand; each turn takes the rate-limit counter, loads the conversation ` +
          `(and the recipe), appends one turn; REUSE also replays the recipe's action and appends RecipeReused.`,
      );
    }
    log(`  section 7 time: ${fixed(flows.seconds, 1)} s`);
  } else if (flows) {
    log(`  section 7 skipped: ${flows.skipped}`);
  }
  if (core) {
    const { http: h, commands: c, ready: r, memory: m } = core;
    if (!isSkipped(h)) {
      const p = (x: { p50: number; p99: number }) => `${ms(x.p50)}/${ms(x.p99)}`;
      log(
        `  section 8 HTTP (medians of ${settings.core.rounds} round(s) of ${settings.core.seconds} s, p50/p99 ms): yardstick ${p(h.yardstick)}, ` +
          `sighting ${p(h.sighting)}, sighting +${settings.core.extraProjections} projections ${p(h.sightingExtra)}; Fastify ${h.fastifyVersion}` +
          (h.yardstickCommits ? `; yardstick ${fixed(h.yardstickCommits.events / Math.max(1, h.yardstickCommits.commits), 1)} events per commit` : '') +
          `; non-2xx ${int(h.sighting.non2xx + h.sightingExtra.non2xx + h.yardstick.non2xx)}.`,
      );
    }
    if (!isSkipped(c)) {
      log(
        `  commands: first command on the ${int(c.streamEvents)}-event stream, nothing cached: ${ms(c.on.coldFirst)} ms (cache on), ` +
          `${ms(c.off.coldFirst)} ms (cache off); ${int(c.on.long.count)} timed per kind with the cache on, ${int(c.off.long.count)} off; no projection wait.`,
      );
    }
    if (!isSkipped(r)) {
      log(
        `  /ready: ${int(r.accounts ?? 0)} accounts; files ${r.files.map((f) => `${f.name} ${fixed(f.bytes / (1024 * 1024), 1)} MB`).join(', ')}; ` +
          `log written in ${fixed(r.generateSeconds, 1)} s; restarts ${r.restarts.map((x) => fixed(x, 2)).join(', ')} s; ` +
          `port open at ${fixed(r.restart.listeningSeconds, 2)} s of the median restart.`,
      );
    }
    if (!isSkipped(m)) {
      log(
        `  memory: ${m.sizes.map((x) => `${int(x.documents)} docs: RSS ${fixed(x.rssMb, 1)} MB, heap ${fixed(x.heapUsedMb, 1)} MB, loaded in ${fixed(x.loadSeconds, 2)} s`).join('; ')}; ` +
          `heap slope ${fixed(m.heapMbPer100k, 1)} MB per 100k.`,
      );
    }
    log(`  section 8 time: ${fixed(core.seconds, 1)} s`);
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
