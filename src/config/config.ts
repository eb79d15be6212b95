/**
 * The one place the environment is read. Every variable is parsed into a typed
 * field and validated at start; a bad value stops the process with a message
 * that names the variable.
 */
import { type IntegrityConfig, loadIntegrityConfig } from './integrity.config';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from './config-error';
import { type ComputeOverrides, loadComputeOverrides } from './compute.config';
import { type A2aConfig, loadA2aConfig } from './a2a.config';
import { type FeedsConfig, loadFeedsConfig } from './feeds.config';
import { loadReferralsConfig, type ReferralsConfig } from './referrals.config';
import { type AdsConfig, loadAdsConfig } from './ads.config';
import { type ChatConfig, loadChatConfig } from './chat.config';
import { type ContestConfig, loadContestConfig } from './contest.config';
import { type EncounterConfig, loadEncounterConfig } from './encounter.config';
import { type EngineConfig, loadEngineConfig } from './engine.config';
import { type HttpConfig, loadHttpConfig } from './http.config';
import { type LlmConfig, loadLlmConfig } from './llm.config';
import { resolveNodeId } from './node-identity';
import { loadObservabilityConfig, type ObservabilityConfig } from './observability.config';
import { loadSecurityConfig, type SecurityConfig } from './security.config';
import { type FederationConfig, loadFederationConfig } from './federation.config';
import { NODE_TIERS, type NodeTier } from './node-tier';

export type { NodeTier };

export type EventStoreKind = 'sqlite' | 'eventstoredb';
export type ReadStoreKind = 'embedded' | 'mongodb';
export type BusKind = 'in-process' | 'kafka';
/**
 * inline: this process runs the projections, sagas and the integration-event
 * relay; off: a separate `npm run worker` process does (READ_STORE=mongodb),
 * and read-your-writes reads the worker's checkpoints.
 */
export type ProjectionsMode = 'inline' | 'off';

export interface EventStoreDbConfig {
  connectionString: string;
}

export interface MongoConfig {
  url: string;
  database: string;
}

export interface KafkaConfig {
  brokers: string[];
  clientId: string;
  /** partitions of the topics the service creates */
  partitions: number;
  /** prefix of the integration-event topics: `<prefix>.<category>` */
  topicPrefix: string;
}

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  eventStore: EventStoreKind;
  readStore: ReadStoreKind;
  bus: BusKind;
  eventStoreDb: EventStoreDbConfig | null;
  mongo: MongoConfig | null;
  kafka: KafkaConfig | null;
  projections: ProjectionsMode;
  /** relay recorded events to the bus as integration events (default: on when BUS=kafka) */
  integrationEvents: boolean;
  nodeId: string;
  nodeTier: NodeTier;
  /** regional replay and the node registry (federation.config.ts) */
  federation: FederationConfig;
  bodyLimitBytes: number;
  readYourWritesTimeoutMs: number;
  /** aggregate states kept in memory by stream (0: fold every stream on every command) */
  aggregateCacheSize: number;
  shutdownTimeoutMs: number;
  jwtSecret: string | null;
  jwtTtlSeconds: number;
  /** refresh tokens' lifetime (REFRESH_TOKEN_TTL_SECONDS, 7 days by default: social-routes §0.2) */
  refreshTtlSeconds: number;
  adminUsernames: string[];
  passwordHashMemoryKib: number;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose' | 'silent';
  version: string;
  /** the hive contest's window (SVC_CONTEST_START / SVC_CONTEST_END) */
  contest: ContestConfig;
  /** compute settings forced by the environment (SVC_<FIELD>) */
  compute: ComputeOverrides;
  /** the encounter constants (SVC_ENCOUNTER_*) */
  encounter: EncounterConfig;
  /** the LLM port: offline engine or an OpenAI-compatible server (LLM_*) */
  llm: LlmConfig;
  /** the chat pipeline's rate limit and budget (CHAT_*) */
  chat: ChatConfig;
  /** the OpenAI-compatible API under /v1: the one model id it serves (V1_MODEL_ID) */
  v1: { modelId: string };
  /** the A2A endpoint's card URL and gateway probing (A2A_*) */
  a2a: A2aConfig;
  feeds: FeedsConfig;
  /** where share links point by default (SHARE_BASE_URL) */
  referrals: ReferralsConfig;
  /** ads: the node operators who share ad revenue (AD_NODE_OPERATORS) */
  ads: AdsConfig;
  /** anonymous use of the pipeline and the token buckets (ANONYMOUS_CHAT, RATE_LIMIT_*) */
  security: SecurityConfig;
  /** the HTTP server's timeouts and connection caps (HTTP_*) */
  http: HttpConfig;
  /** log format, access log, /metrics and tracing (LOG_FORMAT, ACCESS_LOG, METRICS*, OTEL_*) */
  observability: ObservabilityConfig;
  /** the node's Ed25519 key and the nodes it trusts (NODE_PRIVATE_KEY, TRUSTED_NODE_KEYS, NODE_SIGNATURE_MAX_SKEW_SECONDS) */
  integrity: IntegrityConfig;
  /** the agent engine: pressure, runtime tools, model lifecycle, coding tools, skills (ENGINE_*, SKILLS_DIRS, GITHUB_*) */
  engine: EngineConfig;
}

export { ConfigError };

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

function required(env: Env, name: string, because: string): string {
  const value = raw(env, name);
  if (value === undefined) throw new ConfigError(name, `required when ${because}`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (['1', 'true', 'on', 'yes'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'off', 'no'].includes(value.toLowerCase())) return false;
  throw new ConfigError(name, `expected true or false, got '${value}'`);
}

function eventStoreDb(env: Env, kind: EventStoreKind): EventStoreDbConfig | null {
  if (kind !== 'eventstoredb') return null;
  const connectionString = required(env, 'EVENTSTORE_CONNECTION_STRING', 'EVENT_STORE=eventstoredb');
  if (!/^(esdb|kurrentdb|kdb|esdb\+discover|kurrentdb\+discover):\/\//.test(connectionString)) {
    throw new ConfigError('EVENTSTORE_CONNECTION_STRING', `expected esdb://host:port?tls=false, got '${connectionString}'`);
  }
  return { connectionString };
}

function mongo(env: Env, kind: ReadStoreKind): MongoConfig | null {
  if (kind !== 'mongodb') return null;
  const url = required(env, 'MONGO_URL', 'READ_STORE=mongodb');
  if (!/^mongodb(\+srv)?:\/\//.test(url)) throw new ConfigError('MONGO_URL', `expected mongodb://..., got '${url}'`);
  const database = raw(env, 'MONGO_DATABASE') ?? 'svc';
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(database)) {
    throw new ConfigError('MONGO_DATABASE', `expected 1..63 of letters, digits, _ -, got '${database}'`);
  }
  return { url, database };
}

function kafka(env: Env, kind: BusKind, nodeId: string): KafkaConfig | null {
  if (kind !== 'kafka') return null;
  const brokers = required(env, 'KAFKA_BROKERS', 'BUS=kafka')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  for (const broker of brokers) {
    if (!/^[A-Za-z0-9_.-]+:\d{1,5}$/.test(broker)) throw new ConfigError('KAFKA_BROKERS', `expected host:port[,host:port], got '${broker}'`);
  }
  const topicPrefix = raw(env, 'KAFKA_TOPIC_PREFIX') ?? 'svc.events';
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(topicPrefix)) {
    throw new ConfigError('KAFKA_TOPIC_PREFIX', `expected letters, digits, . _ -, got '${topicPrefix}'`);
  }
  return {
    brokers,
    clientId: raw(env, 'KAFKA_CLIENT_ID') ?? nodeId,
    partitions: integer(env, 'KAFKA_PARTITIONS', 3, 1, 1000),
    topicPrefix,
  };
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
  const eventStore = oneOf(env, 'EVENT_STORE', ['sqlite', 'eventstoredb'] as const, 'sqlite');
  const readStore = oneOf(env, 'READ_STORE', ['embedded', 'mongodb'] as const, 'embedded');
  const bus = oneOf(env, 'BUS', ['in-process', 'kafka'] as const, 'in-process');
  const dataDir = resolve(raw(env, 'DATA_DIR') ?? './data');
  const id = resolveNodeId(env, dataDir);
  const nodeTier = oneOf(env, 'SVC_NODE_TIER', NODE_TIERS, 'flat');
  const projections = oneOf(env, 'PROJECTIONS', ['inline', 'off'] as const, 'inline');
  if (projections === 'off' && readStore === 'embedded') {
    throw new ConfigError('PROJECTIONS', 'off needs a shared read store (READ_STORE=mongodb): embedded read models live in one process');
  }
  const port = integer(env, 'PORT', 6777, 0, 65535);
  const host = raw(env, 'HOST') ?? '0.0.0.0';
  const federation = loadFederationConfig(env, nodeTier, host, port);
  return {
    port,
    host,
    dataDir,
    eventStore,
    readStore,
    bus,
    eventStoreDb: eventStoreDb(env, eventStore),
    mongo: mongo(env, readStore),
    kafka: kafka(env, bus, id),
    projections,
    integrationEvents: flag(env, 'INTEGRATION_EVENTS', bus === 'kafka'),
    nodeId: id,
    nodeTier,
    federation,
    referrals: loadReferralsConfig(env, federation.publicUrl),
    ads: loadAdsConfig(env),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    readYourWritesTimeoutMs: integer(env, 'READ_YOUR_WRITES_TIMEOUT_MS', 2000, 0, 60000),
    aggregateCacheSize: integer(env, 'AGGREGATE_CACHE_SIZE', 10000, 0, 10_000_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10000, 0, 600000),
    jwtSecret: jwtSecret(env),
    jwtTtlSeconds: integer(env, 'JWT_TTL_SECONDS', 24 * 3600, 60, 90 * 24 * 3600),
    refreshTtlSeconds: integer(env, 'REFRESH_TOKEN_TTL_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    adminUsernames: list(env, 'SVC_ADMIN_USERS'),
    passwordHashMemoryKib: integer(env, 'PASSWORD_HASH_MEMORY_KIB', 19456, 1024, 1024 * 1024),
    logLevel: oneOf(env, 'LOG_LEVEL', ['error', 'warn', 'log', 'debug', 'verbose', 'silent'] as const, 'log'),
    version: raw(env, 'SVC_VERSION') ?? packageVersion(),
    contest: loadContestConfig(env, new Date()),
    compute: loadComputeOverrides(env, nodeTier),
    encounter: loadEncounterConfig(env),
    llm: loadLlmConfig(env),
    chat: loadChatConfig(env),
    v1: { modelId: v1ModelId(env) },
    a2a: loadA2aConfig(env),
    feeds: loadFeedsConfig(env),
    security: loadSecurityConfig(env),
    http: loadHttpConfig(env),
    observability: loadObservabilityConfig(env),
    integrity: loadIntegrityConfig(env),
    engine: loadEngineConfig(env),
  };
}

/** The model id /v1 shows and accepts: a stable name, not the model behind the LLM port, which may change. */
export const DEFAULT_V1_MODEL_ID = 'agent-platform-1';

function v1ModelId(env: Env): string {
  const value = raw(env, 'V1_MODEL_ID') ?? DEFAULT_V1_MODEL_ID;
  if (!/^[A-Za-z0-9_.:/@-]{1,128}$/.test(value)) throw new ConfigError('V1_MODEL_ID', `expected 1-128 letters, digits or _ . : / @ -, got '${value}'`);
  return value;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** For entry points: the config, or a one-line message naming the bad variable and exit status 78 (EX_CONFIG). */
export function loadConfigOrExit(env: Env = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
}
