/**
 * Section 3: HTTP register + login against the real app.
 *
 * The app (createApp + loadConfig, default PASSWORD_HASH_MEMORY_KIB) runs in a
 * child process (bench/http-server.ts) with a temp DATA_DIR; autocannon drives
 * it from this process with 64 connections. Yardstick: GET /health on the same
 * app.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import * as argon2 from 'argon2';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config/config';
import type { ParentMessage, ServerMessage } from './http-server';
import { heading, int, log, makeTempDir, now, progress, ratio, removeTempDir, secondsSince, timedProgress } from './util';

export interface HttpBenchOptions {
  connections: number;
  healthSeconds: number;
  registerSeconds: number;
  loginSeconds: number;
  /** users registered before the login run, logged in round-robin */
  loginPool: number;
}

export interface HttpRun {
  name: string;
  requestsPerSecond: number;
  total: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50: number;
  p99: number;
  statusCodes: string;
}

export interface HttpBenchResult {
  health: HttpRun;
  register: HttpRun;
  login: HttpRun;
  poolSeconds: number;
  hashMemoryKib: number;
  /** argon2id hashes/s with the app's parameters and nothing else running: the ceiling of register and login */
  argon2PerSecond: number;
}

const PASSWORD = 'bench-Password-1234';
const JSON_HEADERS = { 'content-type': 'application/json' };
const POOL_CONCURRENCY = 16;

/**
 * argon2id alone, with the app's parameters (PasswordHasher: m=memoryKib, t=2, p=1),
 * `inFlight` hashes at a time for `seconds`, in this process while the app is idle.
 */
async function argon2Ceiling(memoryKib: number, seconds: number, inFlight: number): Promise<number> {
  const options: argon2.HashOptions = { type: argon2.argon2id, memoryCost: memoryKib, timeCost: 2, parallelism: 1 };
  const bar = timedProgress('argon2id hash alone', seconds);
  const start = now();
  const deadline = Date.now() + seconds * 1000;
  let hashes = 0;
  const worker = async (): Promise<void> => {
    while (Date.now() < deadline) {
      await argon2.hash(PASSWORD, options);
      hashes++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const rate = hashes / secondsSince(start);
  bar.stop();
  return rate;
}

export interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** more variables for the child's process environment (bench/http-server.ts: BENCH_EXTRA_PROJECTIONS, BENCH_READY_TIMEOUT_MS) */
  childEnv?: Record<string, string>;
  /** called when the port is open, before the app is ready (uptime: the child's process.uptime() then) */
  onListening?: (url: string, uptimeSeconds: number) => void;
}

/** Starts the app in a child process (bench/http-server.ts); `appEnv` adds settings to its loadConfig environment. */
export async function startServer(dataDir: string, appEnv: Record<string, string> = {}, options: StartServerOptions = {}): Promise<Server> {
  const child = fork(join(__dirname, 'http-server.js'), [], {
    // BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the app under load
    execArgv: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
    env: { ...process.env, ...options.childEnv, BENCH_DATA_DIR: dataDir, BENCH_APP_ENV: JSON.stringify(appEnv) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (message: ServerMessage) => {
      if (message.type === 'listening') options.onListening?.(message.url, message.uptimeSeconds);
      else if (message.type === 'ready') resolve(message.url);
      else reject(new Error(`app failed to start: ${message.message}`));
    });
    void exited.then((code) => reject(new Error(`app process exited (code ${code}) before it was ready`)));
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const close: ParentMessage = { type: 'close' };
      child.send(close);
      const timeout = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}

export function summarise(name: string, result: autocannon.Result): HttpRun {
  const codes = Object.entries(result.statusCodeStats ?? {})
    .map(([code, stat]) => `${code}:${stat.count ?? 0}`)
    .join(' ');
  return {
    name,
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statusCodes: codes || '-',
  };
}

export async function cannon(name: string, options: autocannon.Options, seconds: number): Promise<HttpRun> {
  const bar = timedProgress(name, seconds);
  try {
    const result = await autocannon({ ...options, duration: seconds });
    return summarise(name, result);
  } finally {
    bar.stop();
  }
}

export function printRun(run: HttpRun, seconds: number, indent = '  '): void {
  log(
    `${indent}${run.name.padEnd(26)} ${int(run.requestsPerSecond).padStart(7)} req/s  ` +
      `p50 ${int(run.p50)} ms  p99 ${int(run.p99)} ms  ` +
      `(${int(run.total)} in ${seconds} s; non-2xx ${int(run.non2xx)}, errors ${int(run.errors)}, timeouts ${int(run.timeouts)}; status ${run.statusCodes})`,
  );
}

/** Registers `count` users with a few requests in flight; returns their usernames. */
async function registerPool(url: string, count: number, prefix: string): Promise<string[]> {
  const usernames: string[] = [];
  const failures: string[] = [];
  let next = 0;
  const bar = progress('register login pool', count, 'users');
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const username = `${prefix}p${i}`;
      const response = await fetch(`${url}/api/social/register`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ username, email: `${username}@example.com`, password: PASSWORD }),
      });
      await response.arrayBuffer();
      if (response.ok) usernames.push(username);
      else failures.push(`${username}: ${response.status}`);
      bar.update(usernames.length + failures.length);
    }
  };
  await Promise.all(Array.from({ length: POOL_CONCURRENCY }, worker));
  bar.stop();
  if (failures.length) log(`  ! ${failures.length} pool registrations failed, e.g. ${failures.slice(0, 3).join(', ')}`);
  if (usernames.length === 0) throw new Error('no user of the login pool could be registered');
  return usernames;
}

export async function runHttpBench(options: HttpBenchOptions): Promise<HttpBenchResult> {
  heading('3. HTTP register + login (real app, autocannon)');
  const hashMemoryKib = loadConfig({}).passwordHashMemoryKib;
  // Measured before the app starts: once it runs, requests still queued on its thread pool
  // after a run (autocannon stops sending, the server keeps hashing) would compete.
  const inFlight = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  const argon2PerSecond = await argon2Ceiling(hashMemoryKib, 2, inFlight);
  log(`  context: argon2id hash alone (app's parameters, ${inFlight} in flight, no app running): ${int(argon2PerSecond)} hashes/s`);

  const dataDir = makeTempDir('http');
  const startedAt = now();
  const server = await startServer(dataDir);
  try {
    log(`  app ready at ${server.url} in ${secondsSince(startedAt).toFixed(2)} s (separate process; DATA_DIR ${dataDir})`);
    const base = { url: server.url, connections: options.connections };

    // warm-up: JIT, connection setup, first-request paths
    await autocannon({ ...base, url: `${server.url}/health`, duration: 1 });
    const health = await cannon('GET /health', { ...base, url: `${server.url}/health` }, options.healthSeconds);
    printRun(health, options.healthSeconds);

    const prefix = `b${randomUUID().replace(/-/g, '').slice(0, 8)}`;
    let seq = 0;
    const register = await cannon(
      'POST /api/social/register',
      {
        ...base,
        requests: [
          {
            method: 'POST',
            path: '/api/social/register',
            headers: JSON_HEADERS,
            setupRequest: (request) => {
              const username = `${prefix}r${(seq++).toString(36)}`;
              return { ...request, body: JSON.stringify({ username, email: `${username}@example.com`, password: PASSWORD }) };
            },
          },
        ],
      },
      options.registerSeconds,
    );
    printRun(register, options.registerSeconds);

    const poolStart = now();
    const pool = await registerPool(server.url, options.loginPool, prefix);
    const poolSeconds = secondsSince(poolStart);
    log(`  (login pool: ${pool.length} users registered in ${poolSeconds.toFixed(1)} s, ${POOL_CONCURRENCY} at a time)`);

    let turn = 0;
    const login = await cannon(
      'POST /api/social/login',
      {
        ...base,
        requests: [
          {
            method: 'POST',
            path: '/api/social/login',
            headers: JSON_HEADERS,
            setupRequest: (request) => {
              const username = pool[turn++ % pool.length];
              return { ...request, body: JSON.stringify({ username, password: PASSWORD }) };
            },
          },
        ],
      },
      options.loginSeconds,
    );
    printRun(login, options.loginSeconds);

    log(`  ratio register / health: ${ratio(register.requestsPerSecond, health.requestsPerSecond)}`);
    log(`  ratio login / health:    ${ratio(login.requestsPerSecond, health.requestsPerSecond)}`);
    log(
      `  vs argon2id alone (${int(argon2PerSecond)} hashes/s): register at ${ratio(register.requestsPerSecond, argon2PerSecond)}, ` +
        `login at ${ratio(login.requestsPerSecond, argon2PerSecond)} of that ceiling`,
    );
    log(
      `  note: register and login are dominated by argon2id (PASSWORD_HASH_MEMORY_KIB=${hashMemoryKib}, t=2, p=1): ` +
        `one hash (register) or one verify (login) per request, on libuv's thread pool ` +
        `(UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}), so both are CPU-bound at a few dozen per core per second ` +
        `by design; /health measures the framework alone.`,
    );
    return { health, register, login, poolSeconds, hashMemoryKib, argon2PerSecond };
  } finally {
    await server.stop();
    removeTempDir(dataDir);
  }
}
