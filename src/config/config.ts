/**
 * The one place the environment is read. Every variable is parsed into a typed
 * field and validated at start; a bad value stops the process with a message
 * that names the variable.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export type EventStoreKind = 'sqlite';
export type ReadStoreKind = 'embedded';
export type BusKind = 'in-process';
export type NodeTier = 'flat' | 'regional' | 'central';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  eventStore: EventStoreKind;
  readStore: ReadStoreKind;
  bus: BusKind;
  nodeId: string;
  nodeTier: NodeTier;
  bodyLimitBytes: number;
  readYourWritesTimeoutMs: number;
  shutdownTimeoutMs: number;
  jwtSecret: string | null;
  jwtTtlSeconds: number;
  adminUsernames: string[];
  passwordHashMemoryKib: number;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose' | 'silent';
  version: string;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`Invalid environment variable ${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new ConfigError(name, `expected an integer, got '${value}'`);
  const n = Number(value);
  if (n < min || n > max) throw new ConfigError(name, `expected ${min}..${max}, got ${n}`);
  return n;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got '${value}'`);
  }
  return value as T;
}

function list(env: Env, name: string): string[] {
  return (raw(env, name) ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

function jwtSecret(env: Env): string | null {
  const value = raw(env, 'JWT_SECRET');
  if (value === undefined) return null;
  if (value.length < 32) throw new ConfigError('JWT_SECRET', 'must be at least 32 characters');
  return value;
}

function nodeId(env: Env): string {
  const value = raw(env, 'NODE_ID');
  if (value === undefined) return `node-${randomUUID().slice(0, 8)}`;
  if (!/^[A-Za-z0-9_.:-]{1,128}$/.test(value)) {
    throw new ConfigError('NODE_ID', `expected 1..128 of letters, digits, _ . : -, got '${value}'`);
  }
  return value;
}

/** The version in the project's package.json, wherever the compiled file sits (src/ or dist/src/). */
function packageVersion(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return '0.0.0';
}

export function loadConfig(env: Env = process.env): AppConfig {
  return {
    port: integer(env, 'PORT', 6777, 0, 65535),
    host: raw(env, 'HOST') ?? '0.0.0.0',
    dataDir: resolve(raw(env, 'DATA_DIR') ?? './data'),
    eventStore: oneOf(env, 'EVENT_STORE', ['sqlite'] as const, 'sqlite'),
    readStore: oneOf(env, 'READ_STORE', ['embedded'] as const, 'embedded'),
    bus: oneOf(env, 'BUS', ['in-process'] as const, 'in-process'),
    nodeId: nodeId(env),
    nodeTier: oneOf(env, 'SVC_NODE_TIER', ['flat', 'regional', 'central'] as const, 'flat'),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    readYourWritesTimeoutMs: integer(env, 'READ_YOUR_WRITES_TIMEOUT_MS', 2000, 0, 60000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10000, 0, 600000),
    jwtSecret: jwtSecret(env),
    jwtTtlSeconds: integer(env, 'JWT_TTL_SECONDS', 24 * 3600, 60, 90 * 24 * 3600),
    adminUsernames: list(env, 'SVC_ADMIN_USERS'),
    passwordHashMemoryKib: integer(env, 'PASSWORD_HASH_MEMORY_KIB', 19456, 1024, 1024 * 1024),
    logLevel: oneOf(env, 'LOG_LEVEL', ['error', 'warn', 'log', 'debug', 'verbose', 'silent'] as const, 'log'),
    version: raw(env, 'SVC_VERSION') ?? packageVersion(),
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
