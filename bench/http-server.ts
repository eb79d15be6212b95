/**
 * Child-process entry of sections 3, 7 and 8: starts the real application
 * (createApp + loadConfig, exactly as test/support/app.ts does) on
 * 127.0.0.1:0 and reports its URL to the parent once PlatformLifecycle is
 * ready. BENCH_APP_ENV (a JSON object of strings, optional) adds settings to
 * loadConfig's environment (section 7: a low PASSWORD_HASH_MEMORY_KIB, a high
 * CHAT_RATE_LIMIT_PER_MINUTE); without it the app runs on the defaults, but
 * for the abuse limits of docs/security.md: a load from one address is what
 * they stop, so the account buckets are lifted (SOCIAL_RATE_LIMIT_DISABLED,
 * as the docs say for load tests) and so are the pipeline buckets. The
 * limiter still runs on every limited route: its cost is measured.
 *
 * Section 8 only:
 * - BENCH_EXTRA_PROJECTIONS=n registers n more projections, each applying
 *   SightingRecorded with a handler that writes nothing (what a read model
 *   more costs a sighting, apart from its own writes).
 * - BENCH_READY_TIMEOUT_MS (default 15000): how long the app may take to be
 *   ready (a start that catches up a large log takes longer).
 * The child also reports { type: 'listening' } as soon as the port is open,
 * before the projections caught up, so the parent can poll /ready itself.
 *
 * The app runs in its own process so that autocannon (in the parent) does not
 * share the server's event loop, as in the reference measurements, where the
 * load generator is a separate process on the same machine.
 *
 * Protocol (IPC): child → { type: 'ready', url } | { type: 'error', message };
 * parent → { type: 'close' } → child closes the app and exits 0.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/config';
import { PlatformLifecycle } from '../src/infrastructure/platform-lifecycle';
import type { ProjectionDefinition } from '../src/infrastructure/projections/projection';

export type ServerMessage =
  | { type: 'listening'; url: string; uptimeSeconds: number }
  | { type: 'ready'; url: string }
  | { type: 'error'; message: string };
export type ParentMessage = { type: 'close' };

async function waitUntil(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`app not ready within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function send(message: ServerMessage): void {
  process.send?.(message);
}

/** n projections applying SightingRecorded with a handler that writes nothing. */
function emptyProjections(n: number): ProjectionDefinition[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `benchEmpty${i + 1}`,
    version: 1,
    eventTypes: ['SightingRecorded'],
    collections: [],
    apply: () => undefined,
  }));
}

const LOAD_TEST_LIMITS = {
  SOCIAL_RATE_LIMIT_DISABLED: '1',
  RATE_LIMIT_PIPELINE: '9999999/1m',
  RATE_LIMIT_PIPELINE_IP: '9999999/1m',
};

function envInteger(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n >= 0 && process.env[name]?.trim() ? n : fallback;
}

async function main(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR;
  if (!dataDir) throw new Error('BENCH_DATA_DIR is not set');
  const extra = JSON.parse(process.env.BENCH_APP_ENV || '{}') as Record<string, string>;
  const config = loadConfig({ ...LOAD_TEST_LIMITS, ...extra, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const app = await createApp(config, { extraProjections: emptyProjections(envInteger('BENCH_EXTRA_PROJECTIONS', 0)) });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  send({ type: 'listening', url, uptimeSeconds: process.uptime() });
  await waitUntil(() => app.get(PlatformLifecycle).isReady(), envInteger('BENCH_READY_TIMEOUT_MS', 15_000));

  let closing = false;
  const close = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    await app.close();
    process.exit(0);
  };
  process.on('message', (message: ParentMessage) => {
    if (message?.type === 'close') void close();
  });
  // the parent died: do not linger
  process.on('disconnect', () => void close());
  profileOnSignal();
  send({ type: 'ready', url });
}

/**
 * BENCH_PROFILE_DIR set: SIGUSR2 starts a CPU profile, the next one writes it
 * there (the parent brackets the measured rounds with them), so a profile
 * holds the load and nothing of the setup.
 */
function profileOnSignal(): void {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return;
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  // BENCH_PROFILE_KIND=heap: allocation sampling instead of CPU
  const heap = process.env.BENCH_PROFILE_KIND === 'heap';
  let running = false;
  let count = 0;
  process.on('SIGUSR2', () => {
    void (async () => {
      if (!running) {
        running = true;
        if (heap) await post('HeapProfiler.startSampling', { samplingInterval: 4096 });
        else {
          await post('Profiler.enable');
          await post('Profiler.start');
        }
        return;
      }
      running = false;
      const { profile } = (await post(heap ? 'HeapProfiler.stopSampling' : 'Profiler.stop')) as { profile: unknown };
      writeFileSync(join(dir, `app-${process.pid}-${++count}.${heap ? 'heapprofile' : 'cpuprofile'}`), JSON.stringify(profile));
    })();
  });
}

main().catch((error: unknown) => {
  send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
