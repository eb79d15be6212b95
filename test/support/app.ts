/**
 * Starts the real application on the embedded default, on a free loopback
 * port with its own temporary DATA_DIR, and gives tests a small HTTP client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/config';
import { MESSAGE_BUS, type MessageBus } from '../../src/infrastructure/bus/message-bus.port';
import { PlatformLifecycle } from '../../src/infrastructure/platform-lifecycle';
import { adapterEnv } from './adapters';

export interface HttpResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  app: NestFastifyApplication;
  url: string;
  dataDir: string;
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

export async function startTestApp(env: Record<string, string> = {}, dataDir?: string): Promise<TestApp> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    PASSWORD_HASH_MEMORY_KIB: '4096',
    ...adapterEnv(dir),
    ...env,
  });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  await waitUntil(() => app.get(PlatformLifecycle).isReady(), 10_000);
  return {
    app,
    url,
    dataDir: dir,
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

export async function waitUntil(predicate: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let counter = 0;
/** A username no other test uses. */
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}
