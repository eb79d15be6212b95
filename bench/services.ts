/**
 * The real servers of sections 4 and 5, through the test suites' launchers
 * (test/support/services): mongo-java-server and a single-node Kafka broker,
 * both child JVMs fetched from Maven Central into `.cache/services`.
 *
 * The bench runs compiled from dist/, where the launchers' own default cache
 * location (three folders above their __dirname) would be dist/.cache and
 * would fetch every jar again; TEST_SERVICES_CACHE points them at the project
 * root's `.cache/services` instead. The launchers are required lazily, after
 * that variable is set (maven.ts reads it once, when first loaded).
 *
 * Every server started here is tracked, so `stopServers()` can stop whatever
 * still runs when the bench ends, fails or is interrupted.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KafkaServer } from '../test/support/services/kafka-server';
import type { MongoTestServer } from '../test/support/services/mongo-server';

type KafkaLauncher = typeof import('../test/support/services/kafka-server');
type MongoLauncher = typeof import('../test/support/services/mongo-server');
type MavenModule = typeof import('../test/support/services/maven');

interface Stoppable {
  stop(): Promise<void>;
}

const running = new Set<Stoppable>();

/** The folder holding package.json, above this file (bench/ under ts-node, dist/bench/ compiled). */
export function projectRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${__dirname}`);
  }
}

/** Points the launchers at the project root's jar cache (unless TEST_SERVICES_CACHE is set already); returns it. */
export function servicesCache(): string {
  if (!process.env.TEST_SERVICES_CACHE) process.env.TEST_SERVICES_CACHE = join(projectRoot(), '.cache', 'services');
  const { SERVICES_CACHE } = require('../test/support/services/maven') as MavenModule;
  if (SERVICES_CACHE !== process.env.TEST_SERVICES_CACHE) {
    // maven.ts was loaded before the variable was set: it would fetch into the wrong folder
    throw new Error(`launchers use ${SERVICES_CACHE}, not TEST_SERVICES_CACHE=${process.env.TEST_SERVICES_CACHE}`);
  }
  return SERVICES_CACHE;
}

/** Whether the jars of `name` (e.g. `kafka-3.9.1`) are cached already (otherwise the start downloads them). */
export function isCached(name: string): boolean {
  return existsSync(join(servicesCache(), name, '.complete'));
}

function track<T extends Stoppable>(server: T): T {
  const stop = server.stop.bind(server);
  const tracked = Object.assign(server, {
    stop: async () => {
      running.delete(tracked);
      await stop();
    },
  });
  running.add(tracked);
  return tracked;
}

export async function startMongo(): Promise<MongoTestServer> {
  servicesCache();
  const { startMongoServer } = require('../test/support/services/mongo-server') as MongoLauncher;
  return track(await startMongoServer());
}

export async function startKafka(): Promise<KafkaServer> {
  servicesCache();
  const { startKafkaServer } = require('../test/support/services/kafka-server') as KafkaLauncher;
  return track(await startKafkaServer());
}

/** Stops every server still running (each launcher escalates to SIGKILL on its own). */
export async function stopServers(): Promise<void> {
  await Promise.allSettled([...running].map((server) => server.stop()));
}

/** The first line of an error, for "skipped: <reason>"; the rest (server output tails) separately. */
export function describeFailure(error: unknown): { reason: string; detail: string[] } {
  const text = error instanceof Error ? error.message : String(error);
  const [first, ...rest] = text.split('\n');
  // the launchers end their first line with "; output:" before the server's output tail
  const reason = first.trim().replace(/[;:,]?\s*output:$/, '');
  return { reason: reason || 'unknown error', detail: rest.filter((line) => line.trim() !== '' && line.trim() !== '(no output)') };
}
