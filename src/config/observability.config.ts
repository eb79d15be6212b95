/**
 * Logs, metrics and tracing (docs/operations.md, "Observability"):
 *
 * - LOG_FORMAT: `json` (one JSON object a line on stdout) or `pretty`
 *   (pino-pretty, for people); default `pretty` when stdout is a terminal,
 *   `json` otherwise. LOG_LEVEL (config.ts) keeps its values.
 * - ACCESS_LOG (default true): one line per HTTP request at level `log`.
 * - METRICS (default true): `GET /metrics` in Prometheus text format.
 * - METRICS_TOKEN: when set (16+ characters), /metrics asks for
 *   `Authorization: Bearer <token>`; unset, it is open (keep it off the
 *   public network then).
 * - OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT
 *   (+ `/v1/traces`): turns tracing on, spans go there as OTLP/HTTP (JSON).
 *   Unset: no SDK is loaded. OTEL_SERVICE_NAME (default
 *   `agent-platform-service`), OTEL_TRACES_SAMPLER_RATIO (0..1, default 1).
 */
import { ConfigError } from './config-error';

export type LogFormat = 'json' | 'pretty';

export interface TracingConfig {
  /** the OTLP/HTTP traces URL (…/v1/traces) */
  endpoint: string;
  serviceName: string;
  sampleRatio: number;
}

export interface ObservabilityConfig {
  logFormat: LogFormat;
  accessLog: boolean;
  metrics: { enabled: boolean; token: string | null };
  /** null: tracing off, no SDK loaded */
  tracing: TracingConfig | null;
}

type Env = Record<string, string | undefined>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  throw new ConfigError(name, `expected true or false, got '${value}'`);
}

function logFormat(env: Env, stdoutIsTty: boolean): LogFormat {
  const value = raw(env, 'LOG_FORMAT')?.toLowerCase();
  if (value === undefined) return stdoutIsTty ? 'pretty' : 'json';
  if (value !== 'json' && value !== 'pretty') throw new ConfigError('LOG_FORMAT', `expected json or pretty, got '${value}'`);
  return value;
}

function metricsToken(env: Env): string | null {
  const value = raw(env, 'METRICS_TOKEN');
  if (value === undefined) return null;
  if (value.length < 16 || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError('METRICS_TOKEN', 'expected at least 16 printable characters without spaces');
  }
  return value;
}

function tracesEndpoint(env: Env): string | null {
  const traces = raw(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const base = raw(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const name = traces !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const url = traces ?? (base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`);
  if (url === undefined) return null;
  if (!/^https?:\/\/[^\s]+$/.test(url)) throw new ConfigError(name, `expected an http(s) URL, got '${url}'`);
  return url;
}

function ratio(env: Env): number {
  const value = raw(env, 'OTEL_TRACES_SAMPLER_RATIO');
  if (value === undefined) return 1;
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || n < 0 || n > 1) throw new ConfigError('OTEL_TRACES_SAMPLER_RATIO', `expected a number 0..1, got '${value}'`);
  return n;
}

export function loadObservabilityConfig(env: Env, stdoutIsTty = process.stdout.isTTY === true): ObservabilityConfig {
  const endpoint = tracesEndpoint(env);
  const serviceName = raw(env, 'OTEL_SERVICE_NAME') ?? 'agent-platform-service';
  return {
    logFormat: logFormat(env, stdoutIsTty),
    accessLog: flag(env, 'ACCESS_LOG', true),
    metrics: { enabled: flag(env, 'METRICS', true), token: metricsToken(env) },
    tracing: endpoint === null ? null : { endpoint, serviceName, sampleRatio: ratio(env) },
  };
}
