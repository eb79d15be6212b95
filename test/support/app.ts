/**
 * Starts the real application on a free loopback port with its own temporary
 * DATA_DIR, on the adapters of the jest project (the embedded default, or
 * MongoDB and Kafka: adapters.ts), and gives tests a small HTTP client and
 * `settled`, the drain before asserting that nothing more happens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp, type CreateAppOptions } from '../../src/app.factory';
import { loadConfig } from '../../src/config/config';
import { MESSAGE_BUS, type MessageBus } from '../../src/infrastructure/bus/message-bus.port';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { PlatformLifecycle } from '../../src/infrastructure/platform-lifecycle';
import { ProjectionEngine } from '../../src/infrastructure/projections/projection-engine';
import { SagaRunner } from '../../src/infrastructure/sagas/saga-runner';
import { adapterEnv } from './adapters';
import { eventually } from './eventually';
import { type RouteInfo, routeRecorder } from './routes';

export interface HttpResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  app: NestFastifyApplication;
  url: string;
  dataDir: string;
  /** every route the app registered (method and URL with `:param`s), for tests that visit them all */
  routes: readonly RouteInfo[];
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  /** Closes the app; keeps DATA_DIR unless `removeData` (default true). */
  close(removeData?: boolean): Promise<void>;
}

export interface RequestOptions {
  body?: unknown;
  /** sent as is, for malformed-input tests */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

/** The environment of a test app: loopback, any free port, `dir` as DATA_DIR, quiet, cheap hashing, the jest project's adapters. */
export function testAppEnv(dir: string, env: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    PASSWORD_HASH_MEMORY_KIB: '4096',
    // suites register many users from one address; the limits have their own suite (security.e2e)
    SOCIAL_RATE_LIMIT_DISABLED: '1',
    // a busy test machine is always under CPU pressure: no throttling pause unless a suite asks for it
    ENGINE_THROTTLE_MAX_DELAY_MS: '0',
    // the feed poller reads other sites' feeds: only the suites that test it turn it on
    FEED_POLL_INTERVAL_MS: '0',
    // the suites assert read-your-writes, not its bound: on a loaded 2-core machine the projections of a write can take longer than the 2 s default
    READ_YOUR_WRITES_TIMEOUT_MS: '15000',
    ...adapterEnv(dir),
    ...env,
  };
}

/** `appOptions`: e.g. a log destination, for the suites that read the log lines. */
export async function startTestApp(env: Record<string, string> = {}, dataDir?: string, appOptions: CreateAppOptions = {}): Promise<TestApp> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  const config = loadConfig(testAppEnv(dir, env));
  const routes: RouteInfo[] = [];
  const app = await createApp(config, { ...appOptions, onRoute: routeRecorder(routes) });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  await eventually('the app to be ready', () => app.get(PlatformLifecycle).isReady());
  return {
    app,
    url,
    dataDir: dir,
    routes,
    request: (method, path, options) => request(url, method, path, options),
    async close(removeData = true) {
      const bus = app.get<MessageBus>(MESSAGE_BUS);
      await app.close();
      // A node waits for its bus at most a few seconds (a broker outage must
      // not hold up a shutdown); a test waits until the bus has really let go,
      // so no Kafka request outlives the test file.
      await bus.close();
      if (removeData) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/**
 * The explicit drain before asserting that nothing more happens in this
 * process: resolves once the process managers (SagaRunner) and every
 * projection have handled each event in the log, again and again while the
 * sagas' own commands append more. Work that travels over the bus (the hive)
 * is not covered: drain that with the worker's own methods or the bus's close.
 */
export async function settled(t: TestApp, timeoutMs = 10_000): Promise<void> {
  const store = t.app.get<EventStore>(EVENT_STORE);
  const sagas = t.app.get(SagaRunner);
  const projections = t.app.get(ProjectionEngine);
  for (let head = await store.headPosition(); ; ) {
    await eventually(`the sagas to handle the log up to ${head}`, () => sagas.status().position >= head, { timeoutMs });
    if (!(await projections.catchUpTo(head, timeoutMs))) throw new Error(`the projections did not reach ${head} within ${timeoutMs} ms`);
    const now = await store.headPosition();
    if (now === head) return;
    head = now;
  }
}

let counter = 0;
/** A username no other test uses. */
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

/**
 * A word of lower-case letters no other test uses (agent name words, handles):
 * the clock and a counter written in base 26, lowest digit first, so two calls
 * differ in their first letters. Always 2–15 letters long with the prefix.
 */
export function uniqueLetters(prefix = ''): string {
  counter += 1;
  let out = '';
  for (let n = Date.now() * 1000 + counter; n > 0; n = Math.floor(n / 26)) out += String.fromCharCode(97 + (n % 26));
  return prefix + out.slice(0, Math.max(2, 12 - prefix.length));
}

/** The password of the users the suites sign up. */
export const TEST_PASSWORD = 'correct horse battery';

/** A user signed up through POST /api/social/register. */
export interface SignedUpUser {
  id: string;
  username: string;
  token: string;
}

/** Signs up a new user (a unique name from `prefix`, or `username`; `extra` body fields such as referral_code); throws unless 201. */
export async function signUp(t: TestApp, options: { prefix?: string; username?: string; extra?: Record<string, unknown> } = {}): Promise<SignedUpUser> {
  const username = options.username ?? uniqueName(options.prefix);
  const res = await t.request('POST', '/api/social/register', { body: { username, email: `${username}@example.com`, password: TEST_PASSWORD, ...options.extra } });
  if (res.status !== 201) throw new Error(`signing up ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, username, token: res.body.data.token };
}
